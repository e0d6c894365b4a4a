import { describe, expect, it } from "vitest";
import {
  answerApprovals,
  approvalOutcomes,
  denyPendingApprovals,
  describePendingCall,
  pendingApprovalsOf,
} from "./tool-parts";

const pending = (callId: string, approvalId: string, path: string) => ({
  type: "tool-delete_file",
  toolCallId: callId,
  state: "approval-requested",
  input: { path },
  approval: { id: approvalId },
});

const parts = () => [
  { type: "step-start" },
  { type: "text", text: "Deleting two files." },
  {
    type: "tool-write_file",
    toolCallId: "c0",
    state: "output-available",
    input: { path: "a.md", content: "x" },
    output: { ok: true },
  },
  pending("c1", "a1", "work/p1.md"),
  pending("c2", "a2", "work/p2.md"),
];

describe("pendingApprovalsOf", () => {
  it("lists only calls waiting for an answer, with their tool and input", () => {
    expect(pendingApprovalsOf(parts())).toEqual([
      {
        approvalId: "a1",
        toolCallId: "c1",
        toolName: "delete_file",
        input: { path: "work/p1.md" },
      },
      {
        approvalId: "a2",
        toolCallId: "c2",
        toolName: "delete_file",
        input: { path: "work/p2.md" },
      },
    ]);
  });

  it("reads dynamic tools by their toolName", () => {
    const dynamic = { ...pending("c9", "a9", "x"), type: "dynamic-tool", toolName: "mcp_drop" };
    expect(pendingApprovalsOf([dynamic])[0]?.toolName).toBe("mcp_drop");
  });
});

describe("answerApprovals", () => {
  it("applies the answers given and denies the pending calls left unanswered", () => {
    const answered = answerApprovals(
      parts(),
      new Map([["a1", { approvalId: "a1", approved: true }]]),
      "not answered",
    );
    expect(answered[3]).toMatchObject({
      state: "approval-responded",
      approval: { id: "a1", approved: true },
    });
    expect(answered[4]).toMatchObject({
      state: "output-denied",
      approval: { id: "a2", approved: false, reason: "not answered" },
    });
    expect(answered.slice(0, 3)).toEqual(parts().slice(0, 3));
    expect(approvalOutcomes(answered)).toEqual(
      new Map([
        ["a1", "approved"],
        ["a2", "denied"],
      ]),
    );
  });

  it("never changes a call that is not pending, whatever the answers say", () => {
    const settled = denyPendingApprovals(parts(), "first");
    const again = answerApprovals(
      settled,
      new Map([["a1", { approvalId: "a1", approved: true }]]),
      "second",
    );
    expect(again).toEqual(settled);
    expect(pendingApprovalsOf(again)).toEqual([]);
  });
});

describe("describePendingCall", () => {
  it("names the tool and its input and says the call did not run", () => {
    expect(describePendingCall({ toolName: "delete_file", input: { path: "a.md" } })).toBe(
      'delete_file {"path":"a.md"} (awaiting approval; not run)',
    );
  });
});
