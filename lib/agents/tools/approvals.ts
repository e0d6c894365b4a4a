// Approvals the user has just given. The AI SDK checks `needsApproval` again before it runs an
// approved call; a grant written with the same answer ("Allow for this session") would make
// that check say "no approval needed", which the SDK turns into a denial. The calls answered in
// this request therefore always count as needing (and having) approval.
import type { Tool, ToolSet } from "ai";

type ApprovalCheck = Exclude<Tool["needsApproval"], boolean | undefined>;

export function withAnsweredApprovals<T extends ToolSet>(
  tools: T,
  approvedCallIds: ReadonlySet<string>,
): T {
  if (approvedCallIds.size === 0) return tools;
  const out: ToolSet = {};
  for (const [name, tool] of Object.entries(tools)) {
    const check = tool.needsApproval;
    if (typeof check !== "function") {
      out[name] = tool;
      continue;
    }
    const needsApproval: ApprovalCheck = (input, options) =>
      approvedCallIds.has(options.toolCallId) ? true : check(input, options);
    out[name] = { ...tool, needsApproval };
  }
  return out as T;
}
