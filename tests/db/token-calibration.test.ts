// Calibrated estimates over Anthropic's wire protocol: a server whose tokenizer counts 1.3× what
// Baton's local estimate does. After three reported calls the session has learned the ratio, so
// the utilization predicted before the fourth call (the reported figure of the third plus the
// estimate of what came since) is within 5% of what the server then reports; the plain estimate
// would be off by more than that.
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { POST } from "@/app/api/chat/route";
import { getDb } from "@/db/client";
import { listThreadMessages } from "@/db/queries/messages";
import { type Message, sessions, threads } from "@/db/schema";
import type { ContextPart } from "@/lib/chat/types";
import { priorRatio } from "@/lib/context/calibration-prior";
import { guestHeaders } from "../support/auth";
import { parseSse, replyText } from "../support/chat";
import { startAnthropicServer } from "../support/protocol/anthropic";
import { anthropicLocalInputTokens } from "../support/protocol/anthropic-tokens";
import { type ProtocolServer, reportingInput } from "../support/protocol/server";
import { answerTitlesAside } from "../support/provider-suite";

const MODEL = "anthropic:claude-sonnet-4-5";
const FACTOR = 1.3;

let server: ProtocolServer;
let headers: Headers;
const saved: Record<string, string | undefined> = {};

beforeAll(async () => {
  server = await startAnthropicServer({ apiKey: "sk-ant-test" });
  answerTitlesAside(server);
  const env = {
    ANTHROPIC_API_KEY: "sk-ant-test",
    ANTHROPIC_BASE_URL: server.url,
    ANTHROPIC_MODELS: "claude-sonnet-4-5",
  };
  for (const [key, value] of Object.entries(env)) {
    saved[key] = process.env[key];
    process.env[key] = value;
  }
  headers = await guestHeaders();
  headers.set("content-type", "application/json");
});

afterAll(async () => {
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  await server?.close();
});

const WORDS = (
  "the migration plan keeps every table readable while the new index builds in the background " +
  "and a report of 1,204 rows lists what moved; parsers(), queues[] and retries {max: 3} follow " +
  "from the design notes we wrote on Tuesday"
).split(" ");

/** Deterministic prose of about `words` words. */
function prose(words: number, seed: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(WORDS[(i * 7 + seed) % WORDS.length] ?? "");
  return out.join(" ");
}

async function send(threadId: string, text: string) {
  const response = await POST(
    new Request("http://localhost:3000/api/chat", {
      method: "POST",
      headers,
      body: JSON.stringify({
        id: threadId,
        trigger: "submit-message",
        model: MODEL,
        message: { id: randomUUID(), role: "user", parts: [{ type: "text", text }] },
      }),
    }),
  );
  expect(response.status).toBe(200);
  const parts = parseSse(await response.text());
  const contexts = parts
    .filter((p) => p.type === "data-context")
    .map((p) => p.data as unknown as ContextPart);
  return { parts, before: contexts[0], after: contexts.at(-1) };
}

async function settled(threadId: string): Promise<Message[]> {
  const [thread] = await getDb().select().from(threads).where(eq(threads.id, threadId));
  if (!thread) throw new Error("the thread was not stored");
  let rows: Message[] = [];
  await expect
    .poll(
      async () => {
        rows = (await listThreadMessages({ userId: thread.userId, threadId, limit: 100 })).messages;
        return rows.some((m) => m.status === "partial");
      },
      { timeout: 20_000, interval: 25 },
    )
    .toBe(false);
  return rows;
}

it("predicts the next call's input within 5% once three calls have reported it", async () => {
  const threadId = randomUUID();
  const reported: number[] = [];
  const count = (request: Parameters<typeof anthropicLocalInputTokens>[0]) =>
    anthropicLocalInputTokens(request, MODEL);
  const turn = async (i: number, text: string) => {
    server.script(
      reportingInput(FACTOR, count, { text: `Noted, part ${i}: ${prose(40, i)}` }, (n) =>
        reported.push(n),
      ),
    );
    const result = await send(threadId, text);
    expect(replyText(result.parts)).toContain(`Noted, part ${i}`);
    await settled(threadId);
    return result;
  };

  const first = await turn(1, prose(300, 1));
  // Nothing reported yet, in a family this process has not seen: the plain estimate.
  expect(first.before?.calibration).toBeUndefined();
  await turn(2, prose(300, 2));
  await turn(3, prose(300, 3));

  const [session] = await getDb().select().from(sessions).where(eq(sessions.threadId, threadId));
  expect(session?.tokenRatio).toBeCloseTo(FACTOR, 1);

  // The fourth request is mostly new text: only the estimate of it stands between the reported
  // figure of the third call and what the fourth will report.
  const fourth = await turn(4, prose(3000, 4));
  const predicted = fourth.before?.inputTokens ?? 0;
  const actual = reported[3] ?? 0;
  expect(reported).toHaveLength(4);
  expect(fourth.before?.calibration).toBeCloseTo(FACTOR, 1);
  expect(Math.abs(predicted - actual) / actual).toBeLessThan(0.05);

  // Uncalibrated, the same prediction adds the plain estimate of what the third call did not
  // cover: its own reply and the fourth request.
  const rows = await settled(threadId);
  const since = rows.slice(-3, -1).reduce((sum, m) => sum + (m.tokenCount ?? 0), 0);
  const plain = (reported[2] ?? 0) + since;
  expect(Math.abs(plain - actual) / actual).toBeGreaterThan(0.05);
  expect(server.refusals).toEqual([]);
  expect(server.pending()).toBe(0);
});

it("starts a new session of the same family from the learned prior", async () => {
  let reported = 0;
  server.script(
    reportingInput(
      FACTOR,
      (r) => anthropicLocalInputTokens(r, MODEL),
      { text: "Fresh." },
      (n) => {
        reported = n;
      },
    ),
  );
  const { before } = await send(randomUUID(), prose(2000, 5));
  // No call of this thread has reported yet: its whole estimate is scaled by the family's ratio.
  expect(before?.calibration).toBeCloseTo(FACTOR, 1);
  expect(Math.abs((before?.inputTokens ?? 0) - reported) / reported).toBeLessThan(0.05);
  expect(server.pending()).toBe(0);
});

it("seeds a family's prior from the ratios stored on its recent sessions, and only its own", async () => {
  const threadId = randomUUID();
  server.script({ text: "Stored.", usage: { input: 900, output: 3 } });
  await send(threadId, prose(200, 6));
  await settled(threadId);
  await getDb()
    .insert(sessions)
    .values([
      { threadId, number: 2, model: "openai:gpt-4.1-mini", tokenRatio: 1.1 },
      { threadId, number: 3, model: "openai:gpt-4.1", tokenRatio: 1.3 },
      // Same prefix, another family; another family altogether; no ratio learned.
      { threadId, number: 4, model: "openai:gpt-4.10", tokenRatio: 2.4 },
      { threadId, number: 5, model: "openai:gpt-4o", tokenRatio: 0.6 },
      { threadId, number: 6, model: "openai:gpt-4.1-nano" },
    ]);
  expect(await priorRatio("openai:gpt-4.1-2025-04-14")).toBeCloseTo(1.2, 10);
  expect(await priorRatio("openai:gpt-4o-mini")).toBeCloseTo(0.6, 10);
  expect(await priorRatio("google:gemini-2.5-pro")).toBeNull();
});
