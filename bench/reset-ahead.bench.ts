// Drafting ahead: how long a threshold reset takes when its handoff was drafted in the background
// versus written at the reset, with a slow handoff writer (BATON_LOCAL_HANDOFF_DELAY_MS=3000).
// Real chat turns (the same runner as `POST /api/chat`, offline model, the default 4,096-token
// window); the figure is from the stream's `reset_starting` (the threshold was reached) to its
// `reset_complete`. Between turns the bench waits for a draft in flight to end, as a user's next
// message usually comes after the few seconds a draft takes.
// Run: npx tsx --conditions=react-server bench/reset-ahead.bench.ts   (DATABASE_URL=… for Postgres)
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { users } from "@/db/schema";
import { settleDraftsAhead } from "@/lib/context/draft-ahead";
import { runChatTurn } from "@/lib/runs/turn";
import { ms, openScratchDatabase, percentile, table } from "./support";

process.env.BATON_LOCAL_DELAY_MS = "0";
process.env.BATON_LOCAL_HANDOFF_DELAY_MS = "3000";
delete process.env.BATON_LOCAL_CONTEXT_WINDOW;

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const FILLER =
  "Ordinary chatter about the harbour, the trains, the weather and the long walk by the river, " +
  "then the ferry, the lighthouse, the fish market and the old bookshop by the station";

/** One turn; the time from `reset_starting` to `reset_complete` on its stream, if it reset. */
async function turn(userId: string, threadId: string, text: string): Promise<number | null> {
  const response = await runChatTurn({
    actor: { id: userId, isAnonymous: true, email: null, name: "bench" },
    request: {
      trigger: "submit-message",
      id: threadId,
      message: { id: randomUUID(), role: "user", parts: [{ type: "text", text }] },
    },
    signal: new AbortController().signal,
  });
  const reader = response.body?.getReader();
  if (!reader) throw new Error("no body");
  const decoder = new TextDecoder();
  let buffer = "";
  let started: number | null = null;
  let completed: number | null = null;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    if (started === null && buffer.includes('"event":"reset_starting"'))
      started = performance.now();
    if (completed === null && buffer.includes('"event":"reset_complete"')) {
      completed = performance.now();
    }
  }
  if (buffer.includes('"event":"reset_failed"')) throw new Error("a reset failed");
  return started !== null && completed !== null ? completed - started : null;
}

/** Threads filled until their first reset; the reset's duration for each. */
async function resets(userId: string, drafting: boolean): Promise<number[]> {
  if (drafting) delete process.env.BATON_DRAFT_THRESHOLD;
  else process.env.BATON_DRAFT_THRESHOLD = "off";
  const samples: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const threadId = randomUUID();
    await turn(userId, threadId, "remember the bench fact is 42");
    for (let i = 0; i < 80; i++) {
      const took = await turn(userId, threadId, `${FILLER} (${i})`);
      await settleDraftsAhead();
      if (took !== null) {
        samples.push(took);
        break;
      }
    }
  }
  if (samples.length !== RUNS) throw new Error(`only ${samples.length} of ${RUNS} threads reset`);
  return samples;
}

const scratch = await openScratchDatabase("reset-ahead");
try {
  const { getDb } = await import("@/db/client");
  const userId = randomUUID();
  await getDb()
    .insert(users)
    .values({ id: userId, name: "bench", email: `${userId}@bench.test` });
  const ahead = await resets(userId, true);
  const atReset = await resets(userId, false);
  console.log(
    `\n### Drafting ahead on ${scratch.kind} (${new Date().toISOString().slice(0, 10)})\n`,
  );
  console.log(
    table(
      ["handoff", "n", "median", "max"],
      [
        [
          "drafted ahead (0.65), merged at the reset",
          ahead.length,
          ms(percentile(ahead, 50)),
          ms(Math.max(...ahead)),
        ],
        [
          "written at the reset (drafting off)",
          atReset.length,
          ms(percentile(atReset, 50)),
          ms(Math.max(...atReset)),
        ],
      ],
    ),
  );
} finally {
  await scratch.dispose();
}
