// Continuing a reply that was cut off: a prompt that ends with the assistant's own unfinished
// text asks for the rest of it. The offline model's answers are a function of the prompt, so it
// recomputes the whole answer without that text and sends only what follows it.
import type { LanguageModelV3Prompt } from "@ai-sdk/provider";

export interface Continuation {
  /** The text the reply already has. */
  prefix: string;
  /** The prompt without the unfinished reply. */
  prompt: LanguageModelV3Prompt;
}

export function continuationOf(prompt: LanguageModelV3Prompt): Continuation | null {
  const last = prompt.at(-1);
  if (last?.role !== "assistant" || last.content.at(-1)?.type !== "text") return null;
  let prefix = "";
  // The text after the message's last tool call: earlier text belongs to earlier steps.
  for (let i = last.content.length - 1; i >= 0; i--) {
    const part = last.content[i];
    if (part?.type !== "text") break;
    prefix = part.text + prefix;
  }
  const before = last.content.slice(0, last.content.length - countTrailingText(last.content));
  const prompt_ =
    before.length > 0
      ? [...prompt.slice(0, -1), { ...last, content: before }]
      : prompt.slice(0, -1);
  return { prefix, prompt: prompt_ as LanguageModelV3Prompt };
}

function countTrailingText(content: readonly { type: string }[]): number {
  let n = 0;
  for (let i = content.length - 1; i >= 0 && content[i]?.type === "text"; i--) n++;
  return n;
}

/** What follows `prefix` in `full` (all of `full` when it does not start with it). */
export function remainderAfter(full: string, prefix: string): string {
  if (prefix.length > 0 && full.startsWith(prefix)) return full.slice(prefix.length);
  return full;
}
