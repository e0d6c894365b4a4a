import { describe, expect, it } from "vitest";
import { continuableId, lostMidReply, replyNotice } from "./reply-notice";
import type { ChatMessage, MessageStatus } from "./types";

const base = { streaming: false, stopped: false, failed: false, answering: false };

describe("replyNotice", () => {
  it("tells an interrupted reply apart from a stopped and a failed one", () => {
    expect(replyNotice({ ...base, status: "interrupted" })).toBe("interrupted");
    expect(replyNotice({ ...base, status: "partial" })).toBe("stopped");
    expect(replyNotice({ ...base, status: "error" })).toBe("failed");
    expect(replyNotice({ ...base, status: "complete" })).toBeNull();
  });

  it("shows no notice while the reply streams here or the server writes it", () => {
    expect(replyNotice({ ...base, status: "interrupted", streaming: true })).toBeNull();
    expect(replyNotice({ ...base, status: "partial", streaming: true })).toBeNull();
    expect(replyNotice({ ...base, status: "partial", answering: true })).toBe("answering");
  });

  it("puts what happened in this page first", () => {
    expect(replyNotice({ ...base, status: "interrupted", stopped: true })).toBe("stopped");
    expect(replyNotice({ ...base, status: "interrupted", failed: true })).toBe("failed");
    expect(replyNotice({ ...base, status: "partial", stopped: true, streaming: true })).toBe(
      "stopped",
    );
  });
});

describe("continuableId", () => {
  const message = (id: string, role: "user" | "assistant", status: MessageStatus): ChatMessage => ({
    id,
    role,
    parts: [{ type: "text", text: id }],
    metadata: { status },
  });

  it("offers only the newest message, when it is an interrupted reply", () => {
    expect(
      continuableId([message("u1", "user", "complete"), message("a1", "assistant", "interrupted")]),
    ).toBe("a1");
    expect(
      continuableId([message("a1", "assistant", "interrupted"), message("u2", "user", "complete")]),
    ).toBeNull();
    expect(
      continuableId([message("u1", "user", "complete"), message("a1", "assistant", "partial")]),
    ).toBeNull();
    expect(continuableId([])).toBeNull();
  });
});

describe("lostMidReply", () => {
  const question: ChatMessage = { id: "q", role: "user", parts: [{ type: "text", text: "hi" }] };
  const reply = (status?: MessageStatus): ChatMessage => ({
    id: "r",
    role: "assistant",
    parts: [{ type: "text", text: "Hello, so" }],
    metadata: status ? { status } : undefined,
  });

  it("names the reply being written when the connection broke", () => {
    expect(lostMidReply(new TypeError("network error"), [question, reply()])?.id).toBe("r");
    expect(lostMidReply(new TypeError("network error"), [question, reply("partial")])?.id).toBe(
      "r",
    );
  });

  it("is null for an answer the server gave, or a request that never got a reply", () => {
    expect(
      lostMidReply(new Error("Wait for the context reset to finish."), [question, reply()]),
    ).toBeNull();
    expect(lostMidReply(new TypeError("Failed to fetch"), [question])).toBeNull();
    expect(lostMidReply(new TypeError("network error"), [question, reply("complete")])).toBeNull();
  });
});
