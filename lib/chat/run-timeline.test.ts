// How the run timeline reads a journal: one group per invocation in order, lines for tool
// calls, approvals, handoffs and resets, the time steps took and the tokens reported.
import { describe, expect, it } from "vitest";
import type { RunEventView } from "@/lib/agents/journal-schemas";
import { formatDuration, timelineGroups } from "./run-timeline";

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
      ["agent_handoff_accepted", "Handed off: Planner → Coder", "the plan is ready", null],
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
  });
});
