import { describe, expect, it } from "vitest";
import {
  type AnsweringState,
  answeringFrom,
  answeringIds,
  keepsPolling,
  MAX_QUIET_POLLS,
  NOT_ANSWERING,
  nextAnswering,
  POLL_FIRST_MS,
  POLL_MAX_MS,
  pollDelay,
  progressKey,
} from "./answering";
import type { ChatMessage, MessageStatus } from "./types";

const question = (id: string, seq: number): ChatMessage => ({
  id,
  role: "user",
  parts: [{ type: "text", text: `question ${id}` }],
  metadata: { seq, status: "complete" },
});
const reply = (id: string, seq: number, status: MessageStatus, text = "so far"): ChatMessage => ({
  id,
  role: "assistant",
  parts: [{ type: "text", text }],
  metadata: { seq, status },
});

describe("pollDelay", () => {
  it("starts at 1.5 s and backs off to 5 s, never beyond", () => {
    const delays = Array.from({ length: 8 }, (_, i) => pollDelay(i));
    expect(delays[0]).toBe(POLL_FIRST_MS);
    for (let i = 1; i < delays.length; i++) {
      expect(delays[i]).toBeGreaterThanOrEqual(delays[i - 1] ?? 0);
    }
    expect(delays.at(-1)).toBe(POLL_MAX_MS);
    expect(Math.max(...delays)).toBe(POLL_MAX_MS);
  });
});

describe("nextAnswering", () => {
  it("follows the ids the server names and stops once it names none and no reply is written", () => {
    const start = answeringFrom(["u1", "u2"]);
    expect(keepsPolling(start)).toBe(true);
    expect([...answeringIds(start)]).toEqual(["u1", "u2"]);

    const done = nextAnswering(start, {
      messages: [
        question("u1", 1),
        reply("a1", 2, "complete"),
        question("u2", 3),
        reply("a2", 4, "complete"),
      ],
      answering: [],
    });
    expect(done).toEqual(NOT_ANSWERING);
    expect(keepsPolling(done)).toBe(false);
  });

  it("keeps following a reply the server is still writing under a followed question", () => {
    const start = answeringFrom(["u1"]);
    const writing = nextAnswering(start, {
      messages: [question("u1", 1), reply("a1", 2, "partial", "The first")],
      answering: [],
    });
    expect(keepsPolling(writing)).toBe(true);
    expect([...answeringIds(writing)]).toEqual(["a1"]);

    const grown = nextAnswering(writing, {
      messages: [question("u1", 1), reply("a1", 2, "partial", "The first half")],
      answering: [],
    });
    expect(grown.reply?.quiet).toBe(0);
    expect(progressKey(grown)).not.toBe(progressKey(writing));

    const finished = nextAnswering(grown, {
      messages: [question("u1", 1), reply("a1", 2, "complete", "The first half, and more.")],
      answering: [],
    });
    expect(keepsPolling(finished)).toBe(false);
  });

  it("follows the first answer while later questions still wait", () => {
    const state = nextAnswering(answeringFrom(["u1", "u2"]), {
      messages: [question("u1", 1), reply("a1", 2, "partial"), question("u2", 3)],
      answering: ["u2"],
    });
    expect([...answeringIds(state)].sort()).toEqual(["a1", "u2"]);
  });

  it("lets go of a reply that stops growing", () => {
    const page = { messages: [question("u1", 1), reply("a1", 2, "partial")], answering: [] };
    let state: AnsweringState = nextAnswering(answeringFrom(["u1"]), page);
    let polls = 1;
    while (keepsPolling(state) && polls < 20) {
      state = nextAnswering(state, page);
      polls++;
    }
    expect(keepsPolling(state)).toBe(false);
    expect(polls).toBe(MAX_QUIET_POLLS + 1);
  });

  it("never follows a reply the page did not see the server answer (one the user stopped)", () => {
    const state = nextAnswering(NOT_ANSWERING, {
      messages: [question("u1", 1), reply("a1", 2, "partial")],
      answering: [],
    });
    expect(state).toEqual(NOT_ANSWERING);
  });

  it("does not take a later partial reply for the followed question's answer", () => {
    const state = nextAnswering(answeringFrom(["u1"]), {
      messages: [
        question("u1", 1),
        reply("a1", 2, "complete"),
        question("u2", 3),
        reply("a2", 4, "partial"),
      ],
      answering: [],
    });
    expect(state).toEqual(NOT_ANSWERING);
  });
});
