import { describe, expect, it } from "vitest";
import { formatMessages } from "./format-messages";
import {
  carriesResetOf,
  type FollowedStream,
  ownStreamsOf,
  runningResetIn,
  stillAnswering,
  streamsToFollow,
  withLiveMessages,
} from "./live-messages";
import type { ChatMessage, LiveStream, MessageMetadata } from "./types";

type Part = ChatMessage["parts"][number];

const text = (value: string): Part => ({ type: "text", text: value });
const user = (id: string, seq: number, status: MessageMetadata["status"] = "complete") =>
  ({
    id,
    role: "user",
    parts: [text(id)],
    metadata: { seq, sessionId: "s1", status },
  }) satisfies ChatMessage;
const reply = (id: string, parts: Part[], metadata?: MessageMetadata): ChatMessage => ({
  id,
  role: "assistant",
  parts,
  metadata,
});
const stream = (streamId: string, requestId: string | null, continues: string | null = null) =>
  ({
    streamId,
    requestId,
    continuesMessageId: continues,
    startedAt: "2025-01-01T00:00:00.000Z",
  }) satisfies LiveStream;
const followed = (live: LiveStream, message: ChatMessage | null, done = false): FollowedStream => ({
  stream: live,
  message,
  done,
});
const queuedPart: Part = { type: "data-queued", id: "queued-q2", data: { messageId: "q2" } };
const resetPart = (event: "input_blocked" | "reset_cancelled"): Part => ({
  type: "data-context-reset",
  id: "reset-s1",
  data: { event, oldSessionId: "s1" },
});

describe("streamsToFollow", () => {
  const none = new Set<string>();

  it("follows every live stream a fresh page is not reading", () => {
    const live = [stream("a", "q1"), stream("b", "q2")];
    expect(streamsToFollow(live, { followed: none, ownRequests: none, ownMessages: none })).toEqual(
      live,
    );
  });

  it("skips streams already followed and those answering this tab's own requests", () => {
    const live = [stream("a", "q1"), stream("b", "q2"), stream("c", null, "m3"), stream("d", "q4")];
    const picked = streamsToFollow(live, {
      followed: new Set(["a"]),
      ownRequests: new Set(["q2"]),
      ownMessages: new Set(["m3"]),
    });
    expect(picked.map((s) => s.streamId)).toEqual(["d"]);
  });
});

describe("withLiveMessages", () => {
  it("puts each followed reply directly under its question, whatever order the streams came in", () => {
    const list = [user("q1", 1), user("q2", 2, "queued")];
    const answers = [
      followed(stream("b", "q2"), reply("a2", [queuedPart, text("second")])),
      followed(stream("a", "q1"), reply("a1", [text("first")])),
    ];
    const placed = withLiveMessages(list, answers);
    expect(placed.map((m) => m.id)).toEqual(["q1", "a1", "q2", "a2"]);
    // The ordering formatMessages applies keeps them so.
    const items = formatMessages(placed, []).items.flatMap((item) =>
      item.kind === "message" ? [item.message.id] : [],
    );
    expect(items).toEqual(["q1", "a1", "q2", "a2"]);
  });

  it("shows a question as queued until its answer starts, then as answered", () => {
    const list = [user("q1", 1), user("q2", 2, "queued")];
    const live = stream("b", "q2");
    const waiting = withLiveMessages(list, [followed(live, reply("a2", [queuedPart]))]);
    expect(waiting.find((m) => m.id === "q2")?.metadata?.status).toBe("queued");
    expect(waiting.map((m) => m.id)).toEqual(["q1", "q2"]);
    const session: Part = {
      type: "data-session",
      id: "session-s1",
      data: {
        id: "s1",
        number: 1,
        model: "m",
        profile: "default",
        trigger: "initial",
        startedAt: "x",
      },
    };
    const started = withLiveMessages(list, [
      followed(live, reply("a2", [queuedPart, session, text("hi")])),
    ]);
    expect(started.find((m) => m.id === "q2")?.metadata?.status).toBe("complete");
    // The stored copy handed in is not changed.
    expect(list[1]?.metadata?.status).toBe("queued");
  });

  it("replaces the stored message a stream continues instead of adding a second copy", () => {
    const stored = reply("m1", [text("Hello")], { seq: 2, status: "partial" });
    const live = reply("m1", [text("Hello, world")], { seq: 2, status: "partial" });
    const placed = withLiveMessages(
      [user("q1", 1), stored],
      [followed(stream("a", null, "m1"), live)],
    );
    expect(placed).toEqual([user("q1", 1), live]);
  });

  it("leaves the list alone for a stream that has carried nothing yet", () => {
    const list = [user("q1", 1)];
    expect(withLiveMessages(list, [followed(stream("a", "q1"), null)])).toEqual(list);
  });

  it("adds a reply whose question is not on the page at the end", () => {
    const placed = withLiveMessages(
      [user("q1", 1)],
      [followed(stream("a", "q9"), reply("a9", []))],
    );
    expect(placed.map((m) => m.id)).toEqual(["q1", "a9"]);
  });
});

describe("runningResetIn", () => {
  it("finds the reset any followed reply is waiting on, and none once it ended", () => {
    const blocked = reply("a1", [resetPart("input_blocked")]);
    expect(runningResetIn([null, reply("a0", [text("x")]), blocked])?.event).toBe("input_blocked");
    expect(runningResetIn([reply("a1", [resetPart("reset_cancelled")])])).toBeNull();
    expect(runningResetIn([user("q1", 1)])).toBeNull();
  });
});

describe("ownStreamsOf", () => {
  const question = user("q1", 1);
  const answer = reply("a1", [text("…")]);

  it("names useChat's question and the message it continues only while it streams", () => {
    expect(ownStreamsOf({ status: "streaming", messages: [question, answer], queued: [] })).toEqual(
      {
        requests: new Set(["q1"]),
        messages: new Set(["a1"]),
      },
    );
    expect(ownStreamsOf({ status: "ready", messages: [question, answer], queued: [] })).toEqual({
      requests: new Set(),
      messages: new Set(),
    });
  });

  it("names queued messages still being answered", () => {
    const queued = [
      { user: user("q2", 2), answer: null, done: false },
      { user: user("q3", 3), answer: null, done: true },
    ];
    expect(ownStreamsOf({ status: "ready", messages: [], queued }).requests).toEqual(
      new Set(["q2"]),
    );
  });
});

describe("carriesResetOf", () => {
  it("tells whether a reply carries that session's reset, running or ended", () => {
    const ended = reply("a1", [resetPart("reset_cancelled")]);
    expect(carriesResetOf([null, ended], "s1")).toBe(true);
    expect(carriesResetOf([reply("a1", [resetPart("input_blocked")])], "s1")).toBe(true);
    // Another session's reset, or none, says nothing about this one.
    expect(carriesResetOf([ended], "s2")).toBe(false);
    expect(carriesResetOf([reply("a0", [text("x")])], "s1")).toBe(false);
    expect(carriesResetOf([ended], undefined)).toBe(false);
  });
});

describe("stillAnswering", () => {
  const ids = new Set(["q1", "q2", "q3"]);
  const list = [user("q1", 1), user("q2", 2, "queued"), user("q3", 3)];

  it("keeps Answering… on questions no followed stream shows anything for", () => {
    expect(stillAnswering(ids, [], list)).toEqual(ids);
    const waiting = followed(stream("a", "q1"), reply("a1", [queuedPart]));
    expect(stillAnswering(ids, [waiting], list)).toEqual(ids);
  });

  it("gives way to a started answer and to the Queued badge of a followed question", () => {
    const started = followed(stream("a", "q1"), reply("a1", [text("hi")]));
    const queued = followed(stream("b", "q2"), reply("a2", [queuedPart]));
    expect(stillAnswering(ids, [started, queued], list)).toEqual(new Set(["q3"]));
  });
});
