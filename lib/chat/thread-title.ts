// A new thread's short title, written by the thread's model from the first message while the
// first reply streams (the offline model answers with the message's salient words). The title
// shown until then is the first line of the message; a rename made meanwhile wins.
import "server-only";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { generateText } from "ai";
import { log } from "@/core/log";
import { redactText } from "@/core/redact/engine";
import { replaceTitleIfUnchanged } from "@/db/queries/threads";
import { OFFLINE_TITLE_MARKER } from "@/lib/demo-model/model";
import { cleanModelTitle, NO_TITLE, salientTitle } from "./salient-title";

const TITLE_INSTRUCTION = [
  OFFLINE_TITLE_MARKER,
  "Write a title of two to six words for the conversation that starts with the user's message.",
  "Answer with the title only: no quotes and no punctuation at the end.",
].join(" ");

/** The first message a title is written from: enough to know the topic, never the whole paste. */
const TITLE_SOURCE_CHARS = 2_000;
const TITLE_TIMEOUT_MS = 20_000;

const inFlight = new Set<Promise<void>>();

/** Resolves when every title being written has been written (tests wait on it). */
export async function settleTitles(): Promise<void> {
  while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
}

/** Writes the title in the background; failures are logged and leave the placeholder. */
export function writeTitleSoon(input: {
  userId: string;
  threadId: string;
  firstMessage: string;
  placeholder: string;
  model: () => LanguageModelV3;
}): void {
  const task = writeTitle(input)
    .catch((error) => log.warn("thread title not written", error, { threadId: input.threadId }))
    .finally(() => inFlight.delete(task));
  inFlight.add(task);
}

async function writeTitle({
  userId,
  threadId,
  firstMessage,
  placeholder,
  model,
}: {
  userId: string;
  threadId: string;
  firstMessage: string;
  placeholder: string;
  model: () => LanguageModelV3;
}): Promise<void> {
  // A title needs no secret: the model is asked with them masked, and its answer is masked too.
  const source = redactText(firstMessage.slice(0, TITLE_SOURCE_CHARS)).text;
  let title: string | null = null;
  try {
    const result = await generateText({
      model: model(),
      system: TITLE_INSTRUCTION,
      prompt: source,
      maxOutputTokens: 24,
      maxRetries: 1,
      abortSignal: AbortSignal.timeout(TITLE_TIMEOUT_MS),
    });
    title = cleanModelTitle(result.text);
  } catch (error) {
    log.warn("title model call failed; using the message's words", error, { threadId });
  }
  const fallback = salientTitle(source);
  // A message of small talk ("hello") has no better title than itself.
  if (title === null && fallback === NO_TITLE) return;
  // Shown in the sidebar and on the share page: masked like everything else shown there.
  const chosen = redactText(title ?? fallback).text;
  if (chosen === placeholder || chosen === NO_TITLE) return;
  await replaceTitleIfUnchanged({ userId, threadId, expected: placeholder, title: chosen });
}
