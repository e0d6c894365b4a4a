// How the run timeline reads a journal: one group per invocation in order, lines for tool
// calls, approvals, handoffs and resets, the time steps took and the tokens reported.
import { describe, expect, it } from "vitest";
import type { RunEventView } from "@/lib/agents/journal-schemas";
import { formatDuration, formatOffset, replyRequestIds, timelineGroups } from "./run-timeline";
import type { ChatMessage } from "./types";

const T0 = Date.parse("2024-05-01T10:00:00.000Z");
let seq = 0;
function ev(
  type: string,
  atMs: number,
  who: { agent: string; invocationId: string } | null,
  payload: Record<string, unknown> = {},
): RunEventView {
  seq += 1;
  return {
    seq,
    type,
    agent: who?.agent ?? null,
    invocationId: who?.invocationId ?? null,
    at: new Date(T0 + atMs).toISOString(),
    payload,
  };
}

const planner = { agent: "planner", invocationId: "inv-1" };
const coder = { agent: "coder", invocationId: "inv-2" };

const journal = [
  ev("agent_invocation_started", 0, planner, { model: "baton/local" }),
  ev("tool_call", 100, planner, {
    toolName: "read_file",
    toolCallId: "c1",
    args: { path: "a.md" },
  }),
  ev("tool_result", 350, planner, { toolName: "read_file", toolCallId: "c1", ok: true }),
  ev("approval_requested", 400, planner, { toolName: "write_file", approvalId: "ap1" }),
  ev("approval_resolved", 2_400, planner, {
    toolName: "write_file",
    approvalId: "ap1",
    approved: false,
    reason: "not that file",
  }),
  ev("agent_handoff_accepted", 2_500, planner, {
    from: "planner",
    to: { id: "coder", name: "Coder" },
    reason: "the plan is ready",
  }),
  ev("agent_invocation_completed", 2_600, planner, { inputTokens: 1_200, outputTokens: 80 }),
  ev("agent_invocation_started", 2_700, coder),
  ev("reset_started", 3_000, coder, { reason: "context 91% full" }),
  ev("reset_committed", 4_500, coder, { sessionNumber: 3 }),
  ev("tool_result", 4_600, coder, { toolName: "edit_file", ok: false, error: "no match" }),
  ev("agent_invocation_completed", 74_700, coder, { outputTokens: 15 }),
  ev("run_completed", 74_800, null),
];

describe("timelineGroups", () => {
  const names = new Map([["planner", "Planner"]]);
  const groups = timelineGroups(journal, names);

  it("makes one group per invocation, in order, and one for the run's own end", () => {
    expect(groups.map((g) => [g.agent, g.invocationId, g.events.length])).toEqual([
      ["planner", "inv-1", 7],
      ["coder", "inv-2", 5],
      [null, null, 1],
    ]);
    expect(groups.flatMap((g) => g.events.map((e) => e.event.seq))).toEqual(
      journal.map((e) => e.seq),
    );
  });

  it("times an invocation from its start to its completion", () => {
    expect(groups.map((g) => g.durationMs)).toEqual([2_600, 72_000, null]);
  });

  it("describes tool calls, approvals, handoffs and resets, with their durations", () => {
    const lines = groups.flatMap((g) =>
      g.events.map((e) => [e.event.type, e.title, e.detail, e.tookMs]),
    );
    expect(lines).toEqual([
      ["agent_invocation_started", "Started", "baton/local", null],
      ["tool_call", "Called read_file", "a.md", null],
      ["tool_result", "read_file returned", null, 250],
      ["approval_requested", "Asked to approve write_file", null, null],
      ["approval_resolved", "write_file denied by the user", "not that file", 2_000],
      ["agent_handoff_accepted", "Transfer accepted: Planner → Coder", "the plan is ready", null],
      ["agent_invocation_completed", "Completed", null, null],
      ["agent_invocation_started", "Started", null, null],
      ["reset_started", "Context reset started", "context 91% full", null],
      ["reset_committed", "Context reset to session 3", null, 1_500],
      ["tool_result", "edit_file failed", "no match", null],
      ["agent_invocation_completed", "Completed", null, null],
      ["run_completed", "Run completed", null, null],
    ]);
  });

  it("reads the tokens a payload reports, and none where it reports none", () => {
    const tokens = groups.flatMap((g) =>
      g.events
        .filter((e) => e.event.type === "agent_invocation_completed")
        .map((e) => [e.inputTokens, e.outputTokens]),
    );
    expect(tokens).toEqual([
      [1_200, 80],
      [null, 15],
    ]);
  });

  it("shows an event type it does not know as words", () => {
    const [group] = timelineGroups([ev("agent_paused_for_lunch", 0, planner)]);
    expect(group?.events[0]?.title).toBe("agent paused for lunch");
  });
});

describe("formatDuration", () => {
  it("reads as milliseconds, seconds or minutes", () => {
    expect([850, 3_400, 60_000, 125_000].map(formatDuration)).toEqual([
      "850 ms",
      "3.4 s",
      "1 min",
      "2 min 5 s",
    ]);
    expect([850, 3_400, 75_100, 3_725_000].map(formatOffset)).toEqual([
      "+850 ms",
      "+3.4 s",
      "+1:15",
      "+62:05",
    ]);
  });
});

describe("replyRequestIds", () => {
  const message = (id: string, role: "user" | "assistant", seq?: number, status?: "queued") =>
    ({
      id,
      role,
      parts: [],
      metadata: { ...(seq === undefined ? {} : { seq }), ...(status ? { status } : {}) },
    }) as ChatMessage;

  it("gives each reply the user message above it, both halves of a split reply included", () => {
    const messages = [
      message("q1", "user", 1),
      message("r1", "assistant", 2),
      message("q2", "user", 3),
      message("r2a", "assistant", 4),
      message("r2b", "assistant", 5),
      message("q3", "user", 6, "queued"),
    ];
    expect(replyRequestIds(messages)).toEqual(
      new Map([
        ["r1", "q1"],
        ["r2a", "q2"],
        ["r2b", "q2"],
      ]),
    );
  });

  it("follows thread order, not the order the list holds them in", () => {
    const messages = [message("r1", "assistant", 2), message("q1", "user", 1)];
    expect(replyRequestIds(messages)).toEqual(new Map([["r1", "q1"]]));
  });

  it("orders what follows the stored run as the full pass does: live tail, repeats, late seqs", () => {
    const stored = [message("q1", "user", 1), message("r1", "assistant", 2)];
    // An optimistic question and its streaming reply, without seqs, after the stored run.
    expect(replyRequestIds([...stored, message("q2", "user"), message("r2", "assistant")])).toEqual(
      new Map([
        ["r1", "q1"],
        ["r2", "q2"],
      ]),
    );
    // A message after the run that sorts among it.
    expect(
      replyRequestIds([
        message("q1", "user", 1),
        message("q2", "user", 3),
        message("r1", "assistant", 2),
      ]),
    ).toEqual(new Map([["r1", "q1"]]));
    // A message without a seq repeating one of the run: the first occurrence stands.
    expect(
      replyRequestIds([...stored, message("q1", "user"), message("r3", "assistant", 4)]),
    ).toEqual(
      new Map([
        ["r1", "q1"],
        ["r3", "q1"],
      ]),
    );
  });

  it("gives no question to a reply with none above it (an older page not loaded)", () => {
    expect(replyRequestIds([message("r9", "assistant", 9)])).toEqual(new Map());
  });
});
