import { describe, expect, it } from "vitest";
import { emptyArtifact } from "@/lib/handoff/artifact";
import {
  answerRanAcrossReset,
  queuedMessages,
  reconcileMessages,
  runningReset,
} from "./live-messages";
import type { ChatMessage } from "./types";

type Part = ChatMessage["parts"][number];

const text = (value: string): Part => ({ type: "text", text: value });
const write = (id: string, path: string): Part =>
  ({
    type: "tool-write_file",
    toolCallId: id,
    state: "output-available",
    input: { path },
    output: { ok: true },
  }) as Part;
const reset = (event: "reset_starting" | "reset_complete"): Part => ({
  type: "data-context-reset",
  id: "reset-s1",
  data: { event, oldSessionId: "s1", newSessionId: "s2", sessionNumber: 2 },
});
const handoff: Part = {
  type: "data-agent-handoff",
  id: "agent-handoff-s1",
  data: {
    from: { id: "writer", name: "Writer" },
    to: { id: "editor", name: "Editor" },
    oldSessionId: "s1",
    newSessionId: "s2",
    sessionNumber: 2,
    handoff: {
      key: "brief",
      revision: 1,
      id: "b1",
      sessionNumber: 2,
      artifact: emptyArtifact("polish draft.md"),
      markdown: "# Handoff Brief",
      createdAt: "2025-01-01T00:00:00.000Z",
      redactions: [],
      kind: "agent_handoff",
    },
  },
};
const msg = (
  id: string,
  role: "user" | "assistant",
  parts: Part[],
  seq?: number,
  sessionId?: string,
): ChatMessage => ({
  id,
  role,
  parts,
  ...(seq === undefined ? {} : { metadata: { seq, sessionId, status: "complete" } }),
});

describe("reconcileMessages", () => {
  it("keeps a stopped reply's text until its stored copy catches up, with the stored metadata", () => {
    const live = [msg("u1", "user", [text("hi")]), msg("a1", "assistant", [text("hello there")])];
    const stored = [
      msg("u1", "user", [text("hi")], 1, "s1"),
      msg("a1", "assistant", [text("hello")], 2, "s1"),
    ];
    const merged = reconcileMessages(live, stored);
    expect(merged.map((m) => [m.id, m.metadata?.seq])).toEqual([
      ["u1", 1],
      ["a1", 2],
    ]);
    expect(merged[1]?.parts).toEqual([text("hello there")]);
  });

  it("takes an interrupted reply's stored copy, shorter than the words its dead server streamed", () => {
    const live = [msg("a1", "assistant", [text("hello there, and more")])];
    const stored: ChatMessage[] = [
      {
        ...msg("a1", "assistant", [text("hello there")], 2, "s1"),
        metadata: { seq: 2, sessionId: "s1", status: "interrupted" },
      },
    ];
    const [merged] = reconcileMessages(live, stored);
    expect(merged?.parts).toEqual([text("hello there")]);
    expect(merged?.metadata?.status).toBe("interrupted");
  });

  it("keeps a stopped run's tool cards until its stored copy has them", () => {
    const live = [msg("a1", "assistant", [write("c1", "a.md"), write("c2", "b.md")])];
    const stored = [msg("a1", "assistant", [write("c1", "a.md")], 2, "s1")];
    const [merged] = reconcileMessages(live, stored);
    expect(merged?.metadata?.seq).toBe(2);
    expect(merged?.parts).toEqual(live[0]?.parts);
  });

  it("replaces a live run that reset midway by its two stored halves, with no card twice", () => {
    const live = [
      msg("u1", "user", [text("work through the plan")]),
      msg(
        "a1",
        "assistant",
        [
          write("c1", "work/p1.md"),
          reset("reset_complete"),
          write("c2", "work/p2.md"),
          text("done"),
        ],
        2,
        "s1",
      ),
    ];
    const stored = [
      msg("u1", "user", [text("work through the plan")], 1, "s2"),
      msg("a1", "assistant", [write("c1", "work/p1.md"), reset("reset_complete")], 2, "s1"),
      msg("a2", "assistant", [write("c2", "work/p2.md"), text("done")], 3, "s2"),
    ];
    const merged = reconcileMessages(live, stored);
    expect(merged).toEqual(stored);
    const calls = merged.flatMap((m) =>
      m.parts.flatMap((p) => ("toolCallId" in p ? [p.toolCallId] : [])),
    );
    expect(calls).toEqual(["c1", "c2"]);
  });

  it("replaces a live run handed to another agent by its two stored halves", () => {
    // The editor's half is still short of what streamed; the stored halves win all the same,
    // or the writer's row would keep the editor's text too.
    const live = [
      msg("u1", "user", [text("hand off to editor: polish draft.md")], 1, "s1"),
      msg(
        "a1",
        "assistant",
        [write("c1", "draft.md"), handoff, text("Polished draft.md")],
        2,
        "s1",
      ),
    ];
    const stored = [
      live[0] as ChatMessage,
      msg("a1", "assistant", [write("c1", "draft.md"), handoff], 2, "s1"),
      msg("a2", "assistant", [text("Polished")], 3, "s2"),
    ];
    expect(reconcileMessages(live, stored)).toEqual(stored);
  });

  it("adds stored messages the live copy never had, in thread order", () => {
    const merged = reconcileMessages(
      [msg("u2", "user", [text("again")])],
      [msg("u1", "user", [text("first")], 1, "s1"), msg("u2", "user", [text("again")], 3, "s1")],
    );
    expect(merged.map((m) => m.id)).toEqual(["u1", "u2"]);
  });
});

describe("queuedMessages and runningReset", () => {
  it("badges a queued message until its answer starts", () => {
    const user = msg("q1", "user", [text("later")]);
    const waiting = queuedMessages([{ user, answer: null, done: false }]);
    expect(waiting.map((m) => m.metadata?.status)).toEqual(["queued"]);
    const answer = msg("aq1", "assistant", [text("now")]);
    const answered = queuedMessages([{ user, answer, done: false }]);
    expect(answered.map((m) => [m.id, m.metadata?.status])).toEqual([
      ["q1", "complete"],
      ["aq1", undefined],
    ]);
  });

  it("shows no reply for a request that only said it was queued behind a review", () => {
    const user = msg("q2", "user", [text("later")]);
    const answer = msg("aq2", "assistant", [
      { type: "data-queued", id: "queued-q2", data: { messageId: "q2" } },
    ]);
    const settled = queuedMessages([{ user, answer, done: true }], true);
    expect(settled.map((m) => [m.id, m.metadata?.status])).toEqual([["q2", "complete"]]);
  });

  it("reports a reset only while it runs", () => {
    expect(runningReset(msg("a1", "assistant", [reset("reset_starting")]))?.event).toBe(
      "reset_starting",
    );
    expect(runningReset(msg("a1", "assistant", [reset("reset_complete")]))).toBeNull();
    expect(runningReset(undefined)).toBeNull();
  });
});

describe("answerRanAcrossReset", () => {
  const request = (sessionId?: string) =>
    msg("u1", "user", [text("work through the plan")], sessionId ? 3 : undefined, sessionId);

  it("is true for a stored answer with a part in another session than the request", () => {
    const stored = [
      request("s2"),
      msg("a1", "assistant", [write("c1", "a.md"), reset("reset_complete")], 4, "s1"),
      msg("a2", "assistant", [write("c2", "b.md")], 5, "s2"),
    ];
    expect(answerRanAcrossReset(stored)).toBe(true);
  });

  it("is true for a live run that reset after its first step", () => {
    const live = [
      request(),
      msg("a1", "assistant", [write("c1", "a.md"), reset("reset_complete"), write("c2", "b.md")]),
    ];
    expect(answerRanAcrossReset(live)).toBe(true);
  });

  it("is true for a live run that handed over to another agent after its first step", () => {
    const live = [request(), msg("a1", "assistant", [write("c1", "a.md"), handoff, text("done")])];
    expect(answerRanAcrossReset(live)).toBe(true);
  });

  it("is false when the reset came before the answer began, or there was none", () => {
    const resetFirst = [
      request("s2"),
      msg("a1", "assistant", [reset("reset_complete"), text("answer")], 4, "s2"),
    ];
    expect(answerRanAcrossReset(resetFirst)).toBe(false);
    expect(
      answerRanAcrossReset([request("s1"), msg("a1", "assistant", [text("hi")], 4, "s1")]),
    ).toBe(false);
    expect(answerRanAcrossReset([])).toBe(false);
  });
});
