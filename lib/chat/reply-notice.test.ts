import { describe, expect, it } from "vitest";
import { continuableId, replyNotice } from "./reply-notice";
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
