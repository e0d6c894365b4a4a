// The rows a handoff card stands in beyond the dividers of sessions 2+: a continued thread's
// session 1, and a reset that failed because the brief's pins alone do not fit.
import { describe, expect, it } from "vitest";
import { emptyArtifact } from "@/lib/handoff/artifact";
import { formatMessages } from "./format-messages";
import type { ChatMessage, ContextResetPart, SessionSummary } from "./types";

function session(overrides: Partial<SessionSummary> = {}): SessionSummary {
  return {
    id: "s1",
    number: 1,
    model: "baton/local",
    profile: "default",
    trigger: "initial",
    startedAt: "2025-01-01T00:00:00.000Z",
    endedAt: null,
    firstSeq: null,
    messageCount: 0,
    handoff: null,
    ...overrides,
  };
}

const continued = session({
  trigger: "continuation",
  handoff: {
    key: "lisbon-trip",
    revision: 3,
    id: "h1",
    sessionNumber: 3,
    artifact: emptyArtifact("Plan the Lisbon trip", "Ferry booked"),
    markdown: "# Handoff",
    createdAt: "2025-01-01T00:00:00.000Z",
    redactions: [],
  },
});

function reply(id: string, seq: number, data?: ContextResetPart): ChatMessage {
  return {
    id,
    role: "assistant",
    metadata: { seq, sessionId: "s1", status: "complete" },
    parts: [
      { type: "text", text: `reply ${seq}` },
      ...(data ? [{ type: "data-context-reset" as const, id: "reset-s1", data }] : []),
    ],
  };
}

const pinsFailure = (pins: string[]): ContextResetPart => ({
  event: "reset_failed",
  oldSessionId: "s1",
  reason: "The pinned items … alone take 300 tokens.",
  code: "brief_too_large",
  pins,
});

describe("formatMessages: a continued thread", () => {
  it("opens with session 1's divider and its brief, before any message", () => {
    const { items, sessionStartIndex } = formatMessages([], [continued]);
    expect(items).toEqual([
      expect.objectContaining({ kind: "session_divider", key: "session:1", session: continued }),
    ]);
    expect(sessionStartIndex).toEqual({ 1: 0 });
  });

  it("keeps the divider above the first messages", () => {
    const user: ChatMessage = {
      id: "u1",
      role: "user",
      metadata: { seq: 1, sessionId: "s1", status: "complete" },
      parts: [{ type: "text", text: "what do you know?" }],
    };
    const { items } = formatMessages([user, reply("a1", 2)], [continued]);
    expect(items.map((i) => i.kind)).toEqual(["session_divider", "message", "message"]);
  });

  it("gives a session 1 with no stored handoff no divider", () => {
    const { items } = formatMessages([], [session({ trigger: "continuation" })]);
    expect(items).toEqual([]);
  });
});

describe("formatMessages: a reset that failed on its pins", () => {
  it("stands a card listing the pins under the reply, in the session that goes on", () => {
    const { items } = formatMessages([reply("a1", 1, pinsFailure(["budget is 900"]))], [session()]);
    expect(items.map((i) => i.kind)).toEqual(["message", "session_divider"]);
    expect(items[1]).toMatchObject({
      sessionNumber: 1,
      failed: { pins: ["budget is 900"], reason: expect.stringContaining("alone take") },
    });
  });

  it("shows only the latest of repeated failures, and none for other reset failures", () => {
    const other: ContextResetPart = { event: "reset_failed", oldSessionId: "s1", reason: "x" };
    const { items } = formatMessages(
      [
        reply("a1", 1, pinsFailure(["one"])),
        reply("a2", 2, pinsFailure(["one", "two"])),
        reply("a3", 3, other),
      ],
      [session()],
    );
    const cards = items.filter((i) => i.kind === "session_divider");
    expect(cards).toHaveLength(1);
    expect(cards[0]).toMatchObject({ failed: { pins: ["one", "two"] } });
    expect(items.map((i) => i.kind)).toEqual(["message", "message", "session_divider", "message"]);
  });
});
