import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type {
  ChatMessage,
  ContextResetPart,
  HandoffView,
  MessageMetadata,
  SessionSummary,
} from "@/lib/chat/types";
import { emptyArtifact } from "@/lib/handoff/artifact";
import { formatMessages, type ListItem, mergeSeqRanges, messageGaps } from "./format-messages";

type Part = ChatMessage["parts"][number];

const sid = (number: number) => `s${number}`;

function handoff(sessionNumber: number): HandoffView {
  return {
    key: "thread-1",
    revision: sessionNumber - 1,
    id: `h${sessionNumber}`,
    sessionNumber,
    artifact: emptyArtifact("ship it", `state before session ${sessionNumber}`),
    markdown: "# Handoff",
    createdAt: `2025-01-0${Math.min(sessionNumber, 9)}T00:00:00.000Z`,
    redactions: [],
  };
}

function session(number: number, overrides: Partial<SessionSummary> = {}): SessionSummary {
  return {
    id: sid(number),
    number,
    model: "baton/local",
    profile: "default",
    trigger: number === 1 ? "initial" : "threshold",
    startedAt: `2025-01-0${Math.min(number, 9)}T00:00:00.000Z`,
    endedAt: null,
    firstSeq: null,
    messageCount: 0,
    handoff: number === 1 ? null : handoff(number),
    ...overrides,
  };
}

const sessionsUpTo = (count: number) => Array.from({ length: count }, (_, i) => session(i + 1));

const text = (value: string): Part => ({ type: "text", text: value });

function message(
  id: string,
  role: "user" | "assistant",
  parts: Part[],
  metadata?: MessageMetadata,
): ChatMessage {
  return metadata ? { id, role, parts, metadata } : { id, role, parts };
}

const user = (id: string, value: string, metadata?: MessageMetadata) =>
  message(id, "user", [text(value)], metadata);
const assistant = (id: string, parts: Part[] | string, metadata?: MessageMetadata) =>
  message(id, "assistant", typeof parts === "string" ? [text(parts)] : parts, metadata);

/** A stored message: seq plus the session it is stored in. */
const stored = (seq: number, sessionNumber: number): MessageMetadata => ({
  seq,
  sessionId: sid(sessionNumber),
  status: "complete",
});

function resetPart(data: ContextResetPart, fromSession = 1): Part {
  return { type: "data-context-reset", id: `reset-${sid(fromSession)}`, data };
}

function resetComplete(from: number, movedMessageIds: string[] = []): Part {
  return resetPart(
    {
      event: "reset_complete",
      oldSessionId: sid(from),
      newSessionId: sid(from + 1),
      sessionNumber: from + 1,
      utilization: 0.82,
      threshold: 0.8,
      handoff: handoff(from + 1),
      movedMessageIds,
    },
    from,
  );
}

function sessionPart(number: number): Part {
  const { id, model, profile, trigger, startedAt } = session(number);
  return {
    type: "data-session",
    id: "session",
    data: { id, number, model, profile, trigger, startedAt },
  };
}

function agentHandoffPart(from: number, to: number): Part {
  const writer = { id: "writer", name: "Writer" };
  const editor = { id: "editor", name: "Editor" };
  return {
    type: "data-agent-handoff",
    id: `agent-handoff-${sid(from)}`,
    data: {
      from: writer,
      to: editor,
      oldSessionId: sid(from),
      newSessionId: sid(to),
      sessionNumber: to,
      handoff: { ...handoff(to), kind: "agent_handoff" },
    },
  };
}

const compactionPart = (tokensBefore: number, tokensAfter: number): Part => ({
  type: "data-compaction",
  id: `compaction-${tokensBefore}`,
  data: { tokensBefore, tokensAfter },
});

function textOf(item: ListItem): string {
  if (item.kind === "compaction") return `${item.tokensBefore}->${item.tokensAfter}`;
  if (item.kind === "session_divider") return item.live ? `live:${item.live.event}` : "";
  if (item.kind === "placeholder") return `${item.count} unloaded`;
  return item.message.parts
    .map((part) => (part.type === "text" ? part.text : ""))
    .filter(Boolean)
    .join(" ");
}

/** What a reader sees: row kind, the session it sits in, its text. */
const rows = (items: ListItem[]) =>
  items.map((item) => [item.kind, item.sessionNumber, textOf(item)] as const);

const dividerIndices = (items: ListItem[]) =>
  items.flatMap((item, index) => (item.kind === "session_divider" ? [index] : []));

describe("formatMessages: sessions and dividers", () => {
  it("gives a single-session thread no divider and starts session 1 at index 0", () => {
    const messages = [user("u1", "hi", stored(1, 1)), assistant("a1", "hello", stored(2, 1))];
    const { items, sessionStartIndex } = formatMessages(messages, sessionsUpTo(1));
    expect(rows(items)).toEqual([
      ["message", 1, "hi"],
      ["message", 1, "hello"],
    ]);
    expect(items.map((item) => item.key)).toEqual(["u1", "a1"]);
    expect(items[0]?.kind === "message" && items[0].message).toBe(messages[0]);
    expect(sessionStartIndex).toEqual({ 1: 0 });
  });

  it("puts the session 2 divider between the sessions and indexes it", () => {
    const messages = [
      user("u1", "one", stored(1, 1)),
      assistant("a1", "two", stored(2, 1)),
      user("u2", "three", stored(3, 2)),
      assistant("a2", "four", stored(4, 2)),
    ];
    const { items, sessionStartIndex } = formatMessages(messages, sessionsUpTo(2));
    expect(rows(items)).toEqual([
      ["message", 1, "one"],
      ["message", 1, "two"],
      ["session_divider", 2, ""],
      ["message", 2, "three"],
      ["message", 2, "four"],
    ]);
    const divider = items[2];
    expect(divider?.kind === "session_divider" && divider.session).toEqual(session(2));
    expect(divider?.key).toBe("session:2");
    expect(sessionStartIndex).toEqual({ 1: 0, 2: 2 });
  });

  it("places seven sessions' dividers at the right indices, empty sessions included", () => {
    const messageCounts = [3, 2, 0, 1, 4, 2, 0];
    const messages: ChatMessage[] = [];
    let seq = 0;
    messageCounts.forEach((count, i) => {
      for (let k = 0; k < count; k++) {
        seq++;
        messages.push(user(`m${seq}`, `s${i + 1}#${k}`, stored(seq, i + 1)));
      }
    });
    const { items, sessionStartIndex } = formatMessages(messages, sessionsUpTo(7));
    // 1: 0..2 | d2@3, 4..5 | d3@6 | d4@7, 8 | d5@9, 10..13 | d6@14, 15..16 | d7@17
    expect(dividerIndices(items)).toEqual([3, 6, 7, 9, 14, 17]);
    expect(sessionStartIndex).toEqual({ 1: 0, 2: 3, 3: 6, 4: 7, 5: 9, 6: 14, 7: 17 });
    expect(items).toHaveLength(12 + 6);
    for (const [number, index] of Object.entries(sessionStartIndex)) {
      if (Number(number) >= 2) expect(items[index]?.sessionNumber).toBe(Number(number));
    }
  });

  it("orders by seq and keeps unsent messages trailing the stored ones in arrival order", () => {
    const messages = [
      user("u3", "third", stored(3, 1)),
      user("u1", "first", stored(1, 1)),
      user("u2", "second", stored(2, 1)),
      user("live-b", "b"),
      user("live-a", "a"),
    ];
    const { items } = formatMessages(messages, sessionsUpTo(1));
    expect(items.map((item) => item.key)).toEqual(["u1", "u2", "u3", "live-b", "live-a"]);
  });

  it("keeps a message without a seq right before the stored reply that followed it", () => {
    // The stream gives an answer its seq but never the user message it answers.
    const messages = [
      user("u1", "first", stored(1, 1)),
      assistant("a1", "first reply", stored(2, 1)),
      user("live-u", "second"),
      assistant("a2", "second reply", stored(4, 2)),
      user("live-v", "third"),
    ];
    const { items } = formatMessages(messages, sessionsUpTo(2));
    expect(rows(items)).toEqual([
      ["message", 1, "first"],
      ["message", 1, "first reply"],
      ["session_divider", 2, ""],
      ["message", 2, "second"],
      ["message", 2, "second reply"],
      ["message", 2, "third"],
    ]);
  });

  it("puts an unsent message in its reply's session, not a session started after it", () => {
    // Sessions were refetched after a manual reset; the turn before it has no user seq yet.
    const messages = [
      user("u1", "before", stored(1, 1)),
      user("live-u", "asked in session 1"),
      assistant("a1", "answered in session 1", stored(3, 1)),
    ];
    expect(rows(formatMessages(messages, sessionsUpTo(2)).items)).toEqual([
      ["message", 1, "before"],
      ["message", 1, "asked in session 1"],
      ["message", 1, "answered in session 1"],
      ["session_divider", 2, ""],
    ]);
  });

  it("shows an empty session's divider last and puts what is typed next below it", () => {
    const messages = [user("u1", "hello", stored(1, 1)), user("live", "after a manual reset")];
    const { items, sessionStartIndex } = formatMessages(messages, sessionsUpTo(2));
    expect(rows(items)).toEqual([
      ["message", 1, "hello"],
      ["session_divider", 2, ""],
      ["message", 2, "after a manual reset"],
    ]);
    expect(sessionStartIndex).toEqual({ 1: 0, 2: 1 });
    expect(formatMessages([user("u1", "hello", stored(1, 1))], sessionsUpTo(2)).items).toHaveLength(
      2,
    );
  });

  it("places a stored message by its session even when its seq is older (moved on the server)", () => {
    const messages = [
      user("u1", "first", stored(1, 1)),
      user("moved", "moved", stored(2, 2)),
      assistant("a-old", "reply so far", stored(3, 1)),
      assistant("a-new", "answer", stored(4, 2)),
    ];
    const { items } = formatMessages(messages, sessionsUpTo(2));
    expect(rows(items)).toEqual([
      ["message", 1, "first"],
      ["message", 1, "reply so far"],
      ["session_divider", 2, ""],
      ["message", 2, "moved"],
      ["message", 2, "answer"],
    ]);
  });

  it("returns nothing for an empty thread", () => {
    const empty = { items: [], sessionStartIndex: {}, sessionAgents: {} };
    expect(formatMessages([], [])).toEqual(empty);
    expect(formatMessages([], sessionsUpTo(1))).toEqual(empty);
  });

  it("renders a thread before its sessions load as session 1", () => {
    const { items, sessionStartIndex } = formatMessages([user("live", "hi")], []);
    expect(rows(items)).toEqual([["message", 1, "hi"]]);
    expect(sessionStartIndex).toEqual({ 1: 0 });
  });

  it("keeps the first copy of a repeated id so keys stay unique", () => {
    const { items } = formatMessages(
      [user("u1", "stored", stored(1, 1)), user("u1", "optimistic copy")],
      sessionsUpTo(1),
    );
    expect(rows(items)).toEqual([["message", 1, "stored"]]);
  });
});

describe("formatMessages: compaction markers", () => {
  it("puts a compaction row before the assistant message that compacted", () => {
    const messages = [
      user("u1", "long question", stored(1, 1)),
      assistant("a1", [compactionPart(2100, 640), text("answer")], stored(2, 1)),
    ];
    const { items } = formatMessages(messages, sessionsUpTo(1));
    expect(rows(items)).toEqual([
      ["message", 1, "long question"],
      ["compaction", 1, "2100->640"],
      ["message", 1, "answer"],
    ]);
    expect(items[1]?.key).toBe("compaction:a1:compaction-2100");
    expect(items[2]?.kind === "message" && items[2].message).toBe(messages[1]);
  });

  it("gives each compaction of a message its own row", () => {
    const parts = [
      compactionPart(3000, 900),
      text("step one"),
      { type: "data-compaction", data: { tokensBefore: 2500, tokensAfter: 800 } } as Part,
      text("step two"),
    ];
    const { items } = formatMessages([assistant("a1", parts)], sessionsUpTo(1));
    expect(rows(items)).toEqual([
      ["compaction", 1, "3000->900"],
      ["compaction", 1, "2500->800"],
      ["message", 1, "step one step two"],
    ]);
    expect(new Set(items.map((item) => item.key)).size).toBe(3);
  });

  it("keeps a compaction that happened in the new session after a reset in that session", () => {
    const parts = [text("before"), resetComplete(1), compactionPart(1000, 300), text("after")];
    const { items } = formatMessages([assistant("a1", parts)], sessionsUpTo(1));
    expect(rows(items)).toEqual([
      ["message", 1, "before"],
      ["session_divider", 2, ""],
      ["compaction", 2, "1000->300"],
      ["message", 2, "after"],
    ]);
  });
});

describe("formatMessages: a live reset", () => {
  it("splits the streaming message at its completed reset", () => {
    const history = [user("u1", "hi", stored(1, 1)), assistant("a1", "hello", stored(2, 1))];
    const live = assistant("a2", [
      { type: "step-start" },
      sessionPart(1),
      text("working on it"),
      resetComplete(1),
      sessionPart(2),
      { type: "step-start" },
      text("continuing"),
    ]);
    const { items, sessionStartIndex } = formatMessages([...history, live], sessionsUpTo(1));
    expect(rows(items)).toEqual([
      ["message", 1, "hi"],
      ["message", 1, "hello"],
      ["message", 1, "working on it"],
      ["session_divider", 2, ""],
      ["message", 2, "continuing"],
    ]);
    expect(items.map((item) => item.key)).toEqual(["u1", "a1", "a2", "session:2", "a2:s2"]);
    expect(sessionStartIndex).toEqual({ 1: 0, 2: 3 });

    const [before, after] = [items[2], items[4]];
    if (before?.kind !== "message" || after?.kind !== "message") throw new Error("not messages");
    expect(before.message.id).toBe("a2");
    expect(after.message.id).toBe("a2");
    expect(before.message.parts).toEqual(live.parts.slice(0, 3));
    expect(after.message.parts).toEqual(live.parts.slice(4));
  });

  it("builds the divider from the reset and session parts when sessions predate the reset", () => {
    const live = assistant("a1", [text("a"), resetComplete(1), sessionPart(2), text("b")]);
    const { items } = formatMessages([live], sessionsUpTo(1));
    const divider = items.find((item) => item.kind === "session_divider");
    if (divider?.kind !== "session_divider") throw new Error("no divider");
    expect(divider.live).toBeUndefined();
    expect(divider.session).toMatchObject({
      id: "s2",
      number: 2,
      model: "baton/local",
      profile: "default",
      trigger: "threshold",
      startedAt: session(2).startedAt,
      handoff: handoff(2),
    });
  });

  it("synthesizes the divider from the reset part alone, taking the old session's model", () => {
    const live = assistant("a1", [text("a"), resetComplete(1), text("b")]);
    const sessions = [session(1, { model: "openai:gpt-5", profile: "coder" })];
    const divider = formatMessages([live], sessions).items[1];
    expect(divider?.kind === "session_divider" && divider.session).toMatchObject({
      id: "s2",
      number: 2,
      model: "openai:gpt-5",
      profile: "coder",
      handoff: handoff(2),
      startedAt: handoff(2).createdAt,
    });
  });

  it("emits one divider when the new session is also in sessions, preferring its summary", () => {
    const live = assistant("a1", [text("a"), resetComplete(1), text("b")]);
    const known = session(2, { model: "anthropic:claude-sonnet-4", handoff: null });
    const { items } = formatMessages([live], [session(1), known]);
    const dividers = items.filter((item) => item.kind === "session_divider");
    expect(dividers).toHaveLength(1);
    // The summary is kept; the handoff it was fetched without comes from the stream.
    expect(dividers[0]?.kind === "session_divider" && dividers[0].session).toEqual({
      ...known,
      handoff: handoff(2),
    });
  });

  it("puts moved messages in the new session in thread order, each answer under its question", () => {
    const trigger = user("u-trigger", "question");
    const queued = user("u-queued", "queued while resetting", { status: "queued" });
    const live = assistant("a1", [
      text("partial"),
      resetComplete(1, ["u-trigger", "u-queued"]),
      text("answer"),
    ]);
    const queuedAnswer = assistant("a2", [sessionPart(2), text("queued answer")]);
    const { items } = formatMessages(
      [user("u0", "old", stored(1, 1)), trigger, live, queued, queuedAnswer],
      sessionsUpTo(1),
    );
    expect(rows(items)).toEqual([
      ["message", 1, "old"],
      ["message", 1, "partial"],
      ["session_divider", 2, ""],
      ["message", 2, "question"],
      ["message", 2, "answer"],
      ["message", 2, "queued while resetting"],
      ["message", 2, "queued answer"],
    ]);
  });

  it("drops a half with nothing to show", () => {
    const preTurnReset = assistant("a1", [
      sessionPart(1),
      resetComplete(1, ["u1"]),
      sessionPart(2),
      text("answer"),
    ]);
    const { items } = formatMessages([user("u1", "question"), preTurnReset], sessionsUpTo(1));
    expect(rows(items)).toEqual([
      ["session_divider", 2, ""],
      ["message", 2, "question"],
      ["message", 2, "answer"],
    ]);
    expect(items[2]?.key).toBe("a1:s2");
  });

  it("keeps the new session's half when neither half has streamed content yet", () => {
    const justReset = assistant("a1", [sessionPart(1), resetComplete(1, ["u1"]), sessionPart(2)]);
    const { items } = formatMessages([user("u1", "question"), justReset], sessionsUpTo(1));
    expect(items.map((item) => [item.kind, item.key, item.sessionNumber])).toEqual([
      ["session_divider", "session:2", 2],
      ["message", "u1", 2],
      ["message", "a1:s2", 2],
    ]);
  });

  it("counts tool and reasoning parts as content", () => {
    const tool = {
      type: "dynamic-tool",
      toolName: "search",
      toolCallId: "call-1",
      state: "output-available",
      input: {},
      output: "found",
    } as Part;
    const live = assistant("a1", [tool, resetComplete(1), { type: "reasoning", text: "hmm" }]);
    const { items } = formatMessages([live], sessionsUpTo(1));
    expect(items.map((item) => item.key)).toEqual(["a1", "session:2", "a1:s2"]);
  });

  it.each(["reset_starting", "input_blocked"] as const)(
    "shows a placeholder divider while the reset is at %s",
    (event) => {
      const live = assistant("a1", [
        text("partial"),
        resetPart({ event, oldSessionId: "s1", utilization: 0.83, threshold: 0.8 }),
      ]);
      const queued = user("u-queued", "typed during the reset", { status: "queued" });
      const { items, sessionStartIndex } = formatMessages(
        [user("u1", "question"), live, queued],
        sessionsUpTo(1),
      );
      expect(rows(items)).toEqual([
        ["message", 1, "question"],
        ["message", 1, "partial"],
        ["session_divider", 2, `live:${event}`],
        ["message", 1, "typed during the reset"],
      ]);
      const placeholder = items[2];
      expect(placeholder?.kind === "session_divider" && placeholder.live).toEqual({
        event,
        fromSessionId: "s1",
        utilization: 0.83,
        threshold: 0.8,
      });
      // Same key as the divider that replaces it, so the row stays mounted when the reset commits.
      expect(placeholder?.key).toBe("session:2");
      expect(items[1]?.kind === "message" && items[1].message).toBe(live);
      expect(sessionStartIndex).toEqual({ 1: 0 });
    },
  );

  it("drops a stale placeholder once the new session is known", () => {
    const live = assistant("a1", [text("partial"), resetPart({ event: "input_blocked" })]);
    const { items } = formatMessages([live], sessionsUpTo(2));
    expect(rows(items)).toEqual([
      ["message", 1, "partial"],
      ["session_divider", 2, ""],
    ]);
    expect(items[1]?.kind === "session_divider" && items[1].live).toBeUndefined();
  });

  it.each(["reset_cancelled", "reset_failed"] as const)(
    "shows no divider when the reset ends with %s and keeps the message whole",
    (event) => {
      const live = assistant("a1", [
        text("partial"),
        resetPart({ event, oldSessionId: "s1", reason: "brief too large" }),
        text("continued in session 1"),
      ]);
      const { items } = formatMessages([user("u1", "q"), live], sessionsUpTo(1));
      expect(rows(items)).toEqual([
        ["message", 1, "q"],
        ["message", 1, "partial continued in session 1"],
      ]);
      expect(items[1]?.kind === "message" && items[1].message).toBe(live);
    },
  );

  it("leaves a completed reset that names no session inside its message", () => {
    const live = assistant("a1", [text("a"), resetPart({ event: "reset_complete" }), text("b")]);
    const { items } = formatMessages([live], sessionsUpTo(1));
    expect(rows(items)).toEqual([["message", 1, "a b"]]);
    expect(items[0]?.kind === "message" && items[0].message).toBe(live);
  });

  it("puts a message whose session is unknown in the session current at its point", () => {
    const messages = [
      user("u1", "one", stored(1, 2)),
      user("u2", "two", { seq: 2, sessionId: "not-loaded" }),
    ];
    expect(rows(formatMessages(messages, sessionsUpTo(2)).items)).toEqual([
      ["session_divider", 2, ""],
      ["message", 2, "one"],
      ["message", 2, "two"],
    ]);
  });

  it("puts later live messages in the new session", () => {
    const live = assistant("a1", [text("a"), resetComplete(1), text("b")]);
    const { items } = formatMessages(
      [live, user("u2", "next"), assistant("a2", "reply")],
      sessionsUpTo(1),
    );
    expect(rows(items).slice(-3)).toEqual([
      ["message", 2, "b"],
      ["message", 2, "next"],
      ["message", 2, "reply"],
    ]);
  });

  it("keeps live messages that precede the reset in the old session after sessions refresh", () => {
    const messages = [
      user("u1", "earlier", { sessionId: "s1" }),
      assistant("a1", "earlier reply"),
      user("u2", "trigger"),
      assistant("a2", [text("a"), resetComplete(1, ["u2"]), text("b")]),
    ];
    const { items } = formatMessages(messages, sessionsUpTo(2));
    expect(rows(items)).toEqual([
      ["message", 1, "earlier"],
      ["message", 1, "earlier reply"],
      ["message", 1, "a"],
      ["session_divider", 2, ""],
      ["message", 2, "trigger"],
      ["message", 2, "b"],
    ]);
  });
});

describe("formatMessages: live and reloaded threads look the same", () => {
  const history = [
    user("u0", "remember the key is blue", stored(1, 1)),
    assistant("a0", "noted", stored(2, 1)),
  ];

  const liveMessages = [
    ...history,
    user("u1", "what do you know?"),
    assistant("a1", [
      { type: "step-start" },
      sessionPart(1),
      text("so far: the key"),
      resetComplete(1, ["u1", "q1"]),
      sessionPart(2),
      { type: "step-start" },
      text("the key is blue"),
    ]),
    user("q1", "and the door?", { status: "queued" }),
    assistant("aq1", [{ type: "data-queued", data: { messageId: "q1" } }, text("no door yet")]),
  ];

  // What the server stores: the reply so far stays in session 1; the triggering and queued user
  // messages were moved into session 2 (keeping their seq); the rest of the reply and the queued
  // message's answer are stored in session 2, each answer directly under its question.
  const reloadedMessages = [
    ...history,
    user("u1", "what do you know?", stored(3, 2)),
    assistant("a1", [text("so far: the key")], stored(4, 1)),
    assistant("a1-2", [text("the key is blue")], stored(5, 2)),
    user("q1", "and the door?", stored(6, 2)),
    assistant("aq1", [text("no door yet")], stored(7, 2)),
  ];

  const expected = [
    ["message", 1, "remember the key is blue"],
    ["message", 1, "noted"],
    ["message", 1, "so far: the key"],
    ["session_divider", 2, ""],
    ["message", 2, "what do you know?"],
    ["message", 2, "the key is blue"],
    ["message", 2, "and the door?"],
    ["message", 2, "no door yet"],
  ];

  it("renders the live stream", () => {
    expect(rows(formatMessages(liveMessages, sessionsUpTo(1)).items)).toEqual(expected);
  });

  it("renders the live stream the same once sessions have been refetched", () => {
    expect(rows(formatMessages(liveMessages, sessionsUpTo(2)).items)).toEqual(expected);
  });

  it("renders the reload the same", () => {
    const reloaded = formatMessages(reloadedMessages, sessionsUpTo(2));
    const live = formatMessages(liveMessages, sessionsUpTo(1));
    expect(rows(reloaded.items)).toEqual(expected);
    expect(reloaded.sessionStartIndex).toEqual(live.sessionStartIndex);
    const dividerOf = (items: ListItem[]) => items.find((item) => item.kind === "session_divider");
    const [a, b] = [dividerOf(reloaded.items), dividerOf(live.items)];
    expect(a?.kind === "session_divider" && a.session.handoff).toEqual(
      b?.kind === "session_divider" && b.session.handoff,
    );
  });

  it("renders a reload that stored the whole reply with its reset part the same", () => {
    const wholeReply = liveMessages[3] as ChatMessage;
    const storedWhole = [
      ...history,
      user("u1", "what do you know?", stored(3, 2)),
      { ...wholeReply, metadata: stored(4, 2) },
      user("q1", "and the door?", stored(5, 2)),
      assistant("aq1", [text("no door yet")], stored(6, 2)),
    ];
    expect(rows(formatMessages(storedWhole, sessionsUpTo(2)).items)).toEqual(expected);
  });
});

describe("formatMessages: the real stream's shapes", () => {
  it("renders a live threshold reset with a queued message as its reload does", () => {
    // What the browser holds: the stream gives each answer its seq and session (message
    // metadata) but never the user messages'; the queued message came by its own request.
    const history = [user("u0", "hello", stored(1, 1)), assistant("a0", "hi", stored(2, 1))];
    const live = [
      ...history,
      user("u1", "trigger"),
      assistant(
        "a1",
        [
          sessionPart(1),
          resetComplete(1, ["u1", "q1"]),
          sessionPart(2),
          { type: "step-start" },
          text("answer one"),
        ],
        { seq: 4, sessionId: sid(2), status: "complete" },
      ),
      user("q1", "queued"),
      assistant("aq1", [{ type: "data-queued", data: { messageId: "q1" } }, text("answer two")], {
        seq: 6,
        sessionId: sid(2),
        status: "complete",
      }),
    ];
    const reload = [
      ...history,
      user("u1", "trigger", stored(3, 2)),
      { ...(live[3] as ChatMessage), metadata: stored(4, 2) },
      user("q1", "queued", stored(5, 2)),
      { ...(live[5] as ChatMessage), metadata: stored(6, 2) },
    ];
    const expected = [
      ["message", 1, "hello"],
      ["message", 1, "hi"],
      ["session_divider", 2, ""],
      ["message", 2, "trigger"],
      ["message", 2, "answer one"],
      ["message", 2, "queued"],
      ["message", 2, "answer two"],
    ];
    expect(rows(formatMessages(live, sessionsUpTo(1)).items)).toEqual(expected);
    expect(rows(formatMessages(live, sessionsUpTo(2)).items)).toEqual(expected);
    expect(rows(formatMessages(reload, sessionsUpTo(2)).items)).toEqual(expected);
  });

  it("keeps the triggering message in session 1 above the placeholder while the reset runs", () => {
    const live = [
      user("u0", "hello", stored(1, 1)),
      user("u1", "trigger"),
      assistant("a1", [
        sessionPart(1),
        resetPart({ event: "input_blocked", oldSessionId: sid(1), threshold: 0.8 }),
      ]),
      user("q1", "queued", { status: "queued" }),
    ];
    expect(rows(formatMessages(live, sessionsUpTo(1)).items)).toEqual([
      ["message", 1, "hello"],
      ["message", 1, "trigger"],
      ["message", 1, ""],
      ["session_divider", 2, "live:input_blocked"],
      ["message", 1, "queued"],
    ]);
  });
});

describe("formatMessages: placeholders for unloaded pages", () => {
  /** Eight sessions of ten messages each, seqs 1..80; session n holds seqs 10n-9..10n. */
  const eight = Array.from({ length: 8 }, (_, i) =>
    session(i + 1, { firstSeq: i * 10 + 1, messageCount: 10 }),
  );
  const storedRange = (from: number, to: number) =>
    Array.from({ length: to - from + 1 }, (_, k) => {
      const seq = from + k;
      return user(`m${seq}`, `#${seq}`, stored(seq, Math.ceil(seq / 10)));
    });

  it("finds one gap per session above the newest page, with exact counts", () => {
    const messages = storedRange(66, 80);
    const gaps = messageGaps({ sessions: eight, messages, covered: [{ from: 66, to: Infinity }] });
    expect(gaps.map((g) => [g.sessionNumber, g.fromSeq, g.toSeq, g.count, g.loadedBelow])).toEqual([
      [1, 1, 10, 10, false],
      [2, 11, 20, 10, false],
      [3, 21, 30, 10, false],
      [4, 31, 40, 10, false],
      [5, 41, 50, 10, false],
      [6, 51, 60, 10, false],
      [7, 61, 65, 5, true],
    ]);
  });

  it("finds the unloaded head of the last session above the newest page", () => {
    const messages = storedRange(76, 80);
    const gaps = messageGaps({ sessions: eight, messages, covered: [{ from: 76, to: Infinity }] });
    expect(gaps.at(-1)).toEqual({
      sessionNumber: 8,
      fromSeq: 71,
      toSeq: 75,
      count: 5,
      loadedBelow: true,
    });
    expect(gaps.every((g) => Number.isFinite(g.count) && Number.isFinite(g.fromSeq))).toBe(true);
    const { items, sessionStartIndex } = formatMessages(messages, eight, { gaps });
    const eighth = sessionStartIndex[8] ?? -1;
    expect(rows(items).slice(eighth, eighth + 3)).toEqual([
      ["session_divider", 8, ""],
      ["placeholder", 8, "5 unloaded"],
      ["message", 8, "#76"],
    ]);
  });

  it("holds the whole thread's extent: dividers for every session, placeholders in between", () => {
    const messages = storedRange(66, 80);
    const gaps = messageGaps({ sessions: eight, messages, covered: [{ from: 66, to: Infinity }] });
    const { items, sessionStartIndex } = formatMessages(messages, eight, { gaps, chunkSize: 4 });
    const placeholders = items.filter((item) => item.kind === "placeholder");
    expect(placeholders.reduce((sum, p) => sum + (p.kind === "placeholder" ? p.count : 0), 0)).toBe(
      65,
    );
    // Session 1: chunks of 4, 4, 2 at the top; the divider of session 2 right after.
    expect(rows(items).slice(0, 4)).toEqual([
      ["placeholder", 1, "4 unloaded"],
      ["placeholder", 1, "4 unloaded"],
      ["placeholder", 1, "2 unloaded"],
      ["session_divider", 2, ""],
    ]);
    // Session 7: its unloaded head above its loaded tail.
    const seven = sessionStartIndex[7] ?? -1;
    expect(rows(items).slice(seven, seven + 4)).toEqual([
      ["session_divider", 7, ""],
      ["placeholder", 7, "4 unloaded"],
      ["placeholder", 7, "1 unloaded"],
      ["message", 7, "#66"],
    ]);
    const last = items[seven + 2];
    expect(last?.kind === "placeholder" && [last.fromSeq, last.toSeq, last.loadedBelow]).toEqual([
      65,
      65,
      true,
    ]);
    for (const [number, index] of Object.entries(sessionStartIndex)) {
      if (Number(number) >= 2) expect(items[index]?.kind).toBe("session_divider");
    }
    expect(new Set(items.map((item) => item.key)).size).toBe(items.length);
  });

  it("keeps the keys of the rows still unloaded when a page loads from below", () => {
    const before = messageGaps({
      sessions: eight,
      messages: storedRange(66, 80),
      covered: [{ from: 66, to: Infinity }],
    });
    const after = messageGaps({
      sessions: eight,
      messages: storedRange(63, 80),
      covered: [{ from: 63, to: Infinity }],
    });
    const keys = (gaps: typeof before, messages: ChatMessage[]) =>
      formatMessages(messages, eight, { gaps, chunkSize: 4 })
        .items.filter((item) => item.kind === "placeholder" && item.sessionNumber === 7)
        .map((item) => item.key);
    expect(keys(before, storedRange(66, 80))).toEqual(["gap:7:61:0", "gap:7:61:1"]);
    expect(keys(after, storedRange(63, 80))).toEqual(["gap:7:61:0"]);
  });

  it("places a page loaded at a session's start, leaving the rest of it unloaded below", () => {
    const messages = [...storedRange(41, 45), ...storedRange(76, 80)];
    const covered = [
      { from: 41, to: 45 },
      { from: 76, to: Infinity },
    ];
    const gaps = messageGaps({ sessions: eight, messages, covered });
    const five = gaps.filter((g) => g.sessionNumber === 5);
    expect(five.map((g) => [g.fromSeq, g.toSeq, g.count, g.loadedBelow])).toEqual([
      [46, 50, 5, false],
    ]);
    const { items, sessionStartIndex } = formatMessages(messages, eight, { gaps });
    const start = sessionStartIndex[5] ?? -1;
    expect(rows(items).slice(start, start + 8)).toEqual([
      ["session_divider", 5, ""],
      ["message", 5, "#41"],
      ["message", 5, "#42"],
      ["message", 5, "#43"],
      ["message", 5, "#44"],
      ["message", 5, "#45"],
      ["placeholder", 5, "5 unloaded"],
      ["session_divider", 6, ""],
    ]);
  });

  it("spreads a session's unloaded count over its holes and never exceeds a hole's seqs", () => {
    const messages = [...storedRange(45, 46), ...storedRange(51, 80)];
    const gaps = messageGaps({
      sessions: eight,
      messages,
      covered: [
        { from: 45, to: 46 },
        { from: 51, to: Infinity },
      ],
    });
    const five = gaps.filter((g) => g.sessionNumber === 5);
    expect(five.map((g) => [g.fromSeq, g.toSeq, g.count, g.loadedBelow])).toEqual([
      [41, 44, 4, true],
      [47, 50, 4, true],
    ]);
  });

  it("merges seq ranges", () => {
    expect(
      mergeSeqRanges([
        { from: 10, to: 20 },
        { from: 1, to: 4 },
        { from: 5, to: 8 },
        { from: 15, to: Infinity },
      ]),
    ).toEqual([
      { from: 1, to: 8 },
      { from: 10, to: Infinity },
    ]);
  });

  it("has no placeholders when everything is loaded", () => {
    const messages = storedRange(1, 80);
    expect(
      messageGaps({ sessions: eight, messages, covered: [{ from: 1, to: Infinity }] }),
    ).toEqual([]);
  });
});

describe("formatMessages: properties", () => {
  // An agent handoff's part is shown as the divider of the session it started, not in a row.
  const CONTENT = new Set(["text", "reasoning", "dynamic-tool"]);

  interface Draft {
    role: "user" | "assistant";
    seq: boolean;
    session: number | null;
    texts: number;
    compaction: boolean;
    reset: null | {
      kind: "complete" | "starting" | "failed" | "agent";
      to: number;
      moveEarlier: number[];
    };
    textsAfter: number;
  }

  const draft = fc.record<Draft>({
    role: fc.constantFrom("user", "assistant"),
    seq: fc.boolean(),
    session: fc.option(fc.integer({ min: 1, max: 8 }), { nil: null }),
    texts: fc.integer({ min: 0, max: 2 }),
    compaction: fc.boolean(),
    reset: fc.option(
      fc.record({
        kind: fc.constantFrom("complete", "starting", "failed", "agent"),
        to: fc.integer({ min: 1, max: 8 }),
        moveEarlier: fc.array(fc.nat({ max: 30 }), { maxLength: 3 }),
      }),
      { nil: null },
    ),
    textsAfter: fc.integer({ min: 0, max: 2 }),
  });

  const thread = fc.record({
    sessions: fc.integer({ min: 0, max: 6 }),
    drafts: fc.array(draft, { maxLength: 30 }),
    seqs: fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: 30, maxLength: 30 }),
  });

  function build({
    sessions,
    drafts,
    seqs,
  }: {
    sessions: number;
    drafts: Draft[];
    seqs: number[];
  }) {
    return drafts.map((d, i): ChatMessage => {
      const id = `m${i}`;
      const metadata: MessageMetadata = {};
      if (d.seq) metadata.seq = seqs[i];
      if (d.session !== null)
        metadata.sessionId = d.session <= sessions ? sid(d.session) : "unknown";
      const parts: Part[] = [];
      for (let k = 0; k < d.texts; k++) parts.push(text(`${id}.${k}`));
      if (d.compaction) parts.push(compactionPart(100 + i, 10 + i));
      if (d.role === "assistant" && d.reset) {
        const { kind, to, moveEarlier } = d.reset;
        const moved = moveEarlier.filter((k) => k < drafts.length).map((k) => `m${k}`);
        if (kind === "complete") {
          parts.push(
            resetPart({
              event: "reset_complete",
              oldSessionId: sid(Math.max(1, to - 1)),
              newSessionId: sid(to),
              sessionNumber: to,
              movedMessageIds: moved,
            }),
          );
        } else if (kind === "agent") {
          parts.push(agentHandoffPart(Math.max(1, to - 1), to));
        } else {
          parts.push(resetPart({ event: kind === "starting" ? "reset_starting" : "reset_failed" }));
        }
        parts.push(sessionPart(Math.min(to, 8)));
        for (let k = 0; k < d.textsAfter; k++) parts.push(text(`${id}.after${k}`));
      }
      return message(id, d.role, parts, metadata);
    });
  }

  const arbitraryInput = thread.map((t) => ({
    messages: build(t),
    sessions: sessionsUpTo(t.sessions),
  }));

  it("keeps every message and every content part exactly once, under unique keys", () => {
    fc.assert(
      fc.property(arbitraryInput, ({ messages, sessions }) => {
        const { items } = formatMessages(messages, sessions);
        expect(new Set(items.map((item) => item.key)).size).toBe(items.length);

        const messageItems = items.filter((item) => item.kind === "message");
        for (const input of messages) {
          const halves = messageItems.filter((item) => item.message.id === input.id);
          expect(halves.length).toBeGreaterThanOrEqual(1);
          for (const half of halves) {
            expect(half.key === input.id || half.key.startsWith(`${input.id}:s`)).toBe(true);
            expect(half.key).toMatch(/^m\d+(:s\d+)?$/);
          }
          const shown = halves.flatMap((half) =>
            half.message.parts.filter((p) => CONTENT.has(p.type)),
          );
          const original = input.parts.filter((p) => CONTENT.has(p.type));
          expect(new Set(shown)).toEqual(new Set(original));
          expect(shown).toHaveLength(original.length);
        }
        expect(new Set(messageItems.map((item) => item.message.id)).size).toBe(messages.length);

        const compactions = messages.filter((m) =>
          m.parts.some((p) => p.type === "data-compaction"),
        );
        expect(items.filter((item) => item.kind === "compaction")).toHaveLength(compactions.length);
      }),
      { numRuns: 300 },
    );
  });

  it("lays sessions out in order, each divider once, indexed by sessionStartIndex", () => {
    fc.assert(
      fc.property(arbitraryInput, ({ messages, sessions }) => {
        const { items, sessionStartIndex } = formatMessages(messages, sessions);
        const settled = items.filter((item) => item.kind !== "session_divider" || !item.live);
        for (let i = 1; i < settled.length; i++) {
          expect(settled[i]?.sessionNumber).toBeGreaterThanOrEqual(
            settled[i - 1]?.sessionNumber ?? 0,
          );
        }
        const dividers = items.filter((item) => item.kind === "session_divider" && !item.live);
        for (const divider of dividers) {
          expect(divider.sessionNumber).toBeGreaterThanOrEqual(2);
          expect(items[sessionStartIndex[divider.sessionNumber] ?? -1]).toBe(divider);
        }
        for (const s of sessions)
          if (s.number >= 2) expect(sessionStartIndex[s.number]).toBeDefined();
        for (const index of Object.values(sessionStartIndex)) {
          expect(index).toBeGreaterThanOrEqual(0);
          expect(index).toBeLessThan(items.length);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("names every reply's writer in a thread with agents, and none in a Default-only one", () => {
    fc.assert(
      fc.property(arbitraryInput, ({ messages, sessions }) => {
        const { items, sessionAgents } = formatMessages(messages, sessions);
        // The generated sessions all run Default: only a handoff's target is another agent.
        const handedOver = messages.some((m) =>
          m.parts.some((p) => p.type === "data-agent-handoff"),
        );
        const shown = Object.keys(sessionAgents).length > 0;
        if (!handedOver) expect(shown).toBe(false);
        for (const item of items) {
          if (item.kind !== "message") continue;
          expect(Boolean(item.agent)).toBe(shown && item.message.role === "assistant");
        }
      }),
      { numRuns: 300 },
    );
  });

  it("keeps stored order when nothing was moved or split", () => {
    const storedThread = fc
      .array(fc.integer({ min: 1, max: 3 }), { maxLength: 40 })
      .map((steps) => {
        let number = 1;
        return steps.map((step, seq) => {
          if (step === 3) number++;
          return user(`m${seq}`, `t${seq}`, stored(seq, number));
        });
      });
    fc.assert(
      fc.property(storedThread, fc.boolean(), (messages, shuffle) => {
        const input = shuffle ? [...messages].reverse() : messages;
        const sessionCount = messages.at(-1)?.metadata?.sessionId?.slice(1) ?? "1";
        const { items } = formatMessages(input, sessionsUpTo(Number(sessionCount)));
        const order = items.flatMap((item) => (item.kind === "message" ? [item.key] : []));
        expect(order).toEqual(messages.map((m) => m.id));
      }),
    );
  });
});

describe("formatMessages: scale", () => {
  it("formats a 100k-message thread, dividers and compaction markers included", () => {
    const sessions = sessionsUpTo(20);
    const messages: ChatMessage[] = [];
    for (let seq = 0; seq < 100_000; seq++) {
      const number = Math.floor(seq / 5000) + 1;
      const parts: Part[] =
        seq % 997 === 0 ? [compactionPart(seq, 1), text(`m${seq}`)] : [text(`m${seq}`)];
      messages.push(message(`m${seq}`, seq % 2 ? "assistant" : "user", parts, stored(seq, number)));
    }
    const { items, sessionStartIndex } = formatMessages(messages, sessions);
    expect(items.length).toBe(100_000 + 19 + Math.ceil(100_000 / 997));
    expect(items[sessionStartIndex[20] ?? -1]?.kind).toBe("session_divider");
  });
});

describe("formatMessages: a reset between two tool steps of one reply", () => {
  const toolCall = (id: string, toolName: string, input: unknown, output: unknown): Part =>
    ({
      type: `tool-${toolName}`,
      toolCallId: id,
      state: "output-available",
      input,
      output,
    }) as Part;
  const write = (id: string, path: string) =>
    toolCall(id, "write_file", { path, content: "…" }, { ok: true, path, version: 1 });
  const plan = (id: string, done: number) =>
    toolCall(id, "update_plan", { items: [] }, { ok: true, items: [], version: done });

  /** A row as a reader sees it: kind, session, and its text and tool calls in order. */
  const toolRows = (items: ListItem[]) =>
    items.map((item) => {
      if (item.kind !== "message") return [item.kind, item.sessionNumber, ""] as const;
      const shown = item.message.parts.flatMap((part) => {
        if (part.type === "text") return [part.text];
        if ("toolCallId" in part) {
          const input = part.input as { path?: string } | undefined;
          return [`${part.type}${input?.path ? `:${input.path}` : ""}`];
        }
        return [];
      });
      return [item.kind, item.sessionNumber, shown.join(" | ")] as const;
    });

  const history = [
    user("u0", "plan: a; b", stored(1, 1)),
    assistant("a0", [sessionPart(1), plan("c0", 0), text("Plan set")], stored(2, 1)),
  ];

  // The browser's copy: one message for the whole run, with the reset between two tool steps.
  const live = [
    ...history,
    user("u1", "work through the plan"),
    assistant(
      "a1",
      [
        { type: "step-start" },
        sessionPart(1),
        plan("c1", 1),
        { type: "step-start" },
        write("c2", "work/p1.md"),
        { type: "step-start" },
        plan("c3", 2),
        resetComplete(1, ["u1"]),
        sessionPart(2),
        { type: "step-start" },
        write("c4", "work/p2.md"),
        { type: "step-start" },
        text("Files I wrote: work/p1.md, work/p2.md"),
      ],
      { seq: 4, sessionId: sid(1), status: "complete" },
    ),
  ];

  // What the server stores: session 1's steps (ending with the reset) in the run's first
  // message, the rest in a message of session 2, and the request moved into session 2.
  const reloaded = [
    ...history,
    user("u1", "work through the plan", stored(3, 2)),
    assistant(
      "a1",
      [
        { type: "step-start" },
        sessionPart(1),
        plan("c1", 1),
        { type: "step-start" },
        write("c2", "work/p1.md"),
        { type: "step-start" },
        plan("c3", 2),
        resetComplete(1, ["u1"]),
      ],
      stored(4, 1),
    ),
    assistant(
      "a1-2",
      [
        sessionPart(2),
        { type: "step-start" },
        write("c4", "work/p2.md"),
        { type: "step-start" },
        text("Files I wrote: work/p1.md, work/p2.md"),
      ],
      stored(5, 2),
    ),
  ];

  const expected = [
    ["message", 1, "plan: a; b"],
    ["message", 1, "tool-update_plan | Plan set"],
    ["message", 1, "tool-update_plan | tool-write_file:work/p1.md | tool-update_plan"],
    ["session_divider", 2, ""],
    ["message", 2, "work through the plan"],
    ["message", 2, "tool-write_file:work/p2.md | Files I wrote: work/p1.md, work/p2.md"],
  ];

  it("puts each session's tool steps on its side of the divider while streaming", () => {
    expect(toolRows(formatMessages(live, sessionsUpTo(1)).items)).toEqual(expected);
    expect(toolRows(formatMessages(live, sessionsUpTo(2)).items)).toEqual(expected);
  });

  it("renders the reload with the same rows in the same order", () => {
    const fromReload = formatMessages(reloaded, sessionsUpTo(2));
    expect(toolRows(fromReload.items)).toEqual(expected);
    expect(fromReload.sessionStartIndex).toEqual(
      formatMessages(live, sessionsUpTo(1)).sessionStartIndex,
    );
  });

  it("keeps a tool call still running in the new session's half", () => {
    const running = {
      type: "tool-write_file",
      toolCallId: "c5",
      state: "input-available",
      input: { path: "work/p3.md", content: "…" },
    } as Part;
    const streaming = assistant("a1", [
      sessionPart(1),
      write("c2", "work/p1.md"),
      resetComplete(1, ["u1"]),
      sessionPart(2),
      { type: "step-start" },
      running,
    ]);
    const { items } = formatMessages(
      [...history, user("u1", "work through the plan"), streaming],
      sessionsUpTo(1),
    );
    expect(toolRows(items).slice(2)).toEqual([
      ["message", 1, "tool-write_file:work/p1.md"],
      ["session_divider", 2, ""],
      ["message", 2, "work through the plan"],
      ["message", 2, "tool-write_file:work/p3.md"],
    ]);
    expect(items.at(-1)?.key).toBe("a1:s2");
  });
});
