import { describe, expect, it } from "vitest";
import type { LiveStreamRow } from "@/db/queries/live-streams";
import type { Message } from "@/db/schema";
import { withoutLiveRows } from "./live-rows";

const row = (id: string, seq: number, role: Message["role"], runId: string | null): Message => ({
  threadId: "t",
  id,
  sessionId: "s",
  seq,
  role,
  parts: [
    { type: "text", text: `${id}-a` },
    { type: "text", text: `${id}-b` },
  ],
  status: "complete",
  model: null,
  agent: null,
  runId,
  usage: null,
  tokenCount: 0,
  compacted: false,
  createdAt: new Date(0),
  updatedAt: new Date(0),
});

const stream = (over: Partial<LiveStreamRow>): LiveStreamRow => ({
  runId: "r1",
  streamId: "x",
  requestMessageId: "q",
  streamMessageId: null,
  streamBaseParts: 0,
  streamMessageSeq: null,
  startedAt: new Date(0),
  queued: false,
  ...over,
});

describe("withoutLiveRows", () => {
  const rows = [
    row("q", 1, "user", null),
    row("a1", 2, "assistant", "r1"),
    row("a2", 3, "assistant", "r1"),
    row("other", 4, "assistant", "r0"),
  ];

  it("keeps everything when nothing is live", () => {
    expect(withoutLiveRows(rows, []).map((r) => r.id)).toEqual(["q", "a1", "a2", "other"]);
  });

  it("leaves out every assistant row of a new live run", () => {
    expect(withoutLiveRows(rows, [stream({})]).map((r) => r.id)).toEqual(["q", "other"]);
  });

  it("cuts a continued message to its base parts and keeps the run's earlier rows", () => {
    const live = stream({ streamMessageId: "a2", streamBaseParts: 1, streamMessageSeq: 3 });
    const out = withoutLiveRows([...rows, row("a3", 5, "assistant", "r1")], [live]);
    expect(out.map((r) => r.id)).toEqual(["q", "a1", "a2", "other"]);
    const continued = out.find((r) => r.id === "a2");
    expect(continued?.parts).toEqual([{ type: "text", text: "a2-a" }]);
    expect(continued?.status).toBe("partial");
  });
});
