/** A tool part as stored: `tool-<name>` (static tools) or `dynamic-tool` with `toolName`. */
export interface ToolPartView {
  type: string;
  toolCallId: string;
  toolName: string;
  state: string;
  input: unknown;
  output?: unknown;
  approval?: { id: string; approved?: boolean; reason?: string };
}

export function asToolPart(part: unknown): ToolPartView | null {
  if (!part || typeof part !== "object") return null;
  const p = part as Record<string, unknown>;
  const type = typeof p.type === "string" ? p.type : "";
  const isStatic = type.startsWith("tool-");
  if (!isStatic && type !== "dynamic-tool") return null;
  if (typeof p.toolCallId !== "string" || typeof p.state !== "string") return null;
  const toolName = isStatic ? type.slice("tool-".length) : String(p.toolName ?? "");
  const approval =
    p.approval && typeof p.approval === "object"
      ? (p.approval as ToolPartView["approval"])
      : undefined;
  return {
    type,
    toolCallId: p.toolCallId,
    toolName,
    state: p.state,
    input: p.input,
    output: p.output,
    approval,
  };
}

export interface PendingApproval {
  approvalId: string;
  toolCallId: string;
  toolName: string;
  input: unknown;
}

/** Calls waiting for the user's answer (state `approval-requested`), in message order. */
export function pendingApprovalsOf(parts: readonly unknown[]): PendingApproval[] {
  const pending: PendingApproval[] = [];
  for (const raw of parts) {
    const part = asToolPart(raw);
    if (part?.state !== "approval-requested" || !part.approval?.id) continue;
    pending.push({
      approvalId: part.approval.id,
      toolCallId: part.toolCallId,
      toolName: part.toolName,
      input: part.input,
    });
  }
  return pending;
}

/** One line per pending call for a handoff's `needs_authorization`. */
export function describePendingCall(call: Pick<PendingApproval, "toolName" | "input">): string {
  const input = JSON.stringify(call.input ?? {}) ?? "{}";
  const shown = input.length > 300 ? `${input.slice(0, 299)}…` : input;
  return `${call.toolName} ${shown} (awaiting approval; not run)`;
}

export interface ApprovalAnswer {
  approvalId: string;
  approved: boolean;
  reason?: string;
}

/**
 * The parts with each pending approval answered: named ones take the user's answer, the rest
 * of the pending ones are denied with `unansweredReason`. Only `approval-requested` parts
 * change, so nothing the client sends can alter a call's input, output or an earlier answer.
 */
export function answerApprovals(
  parts: readonly unknown[],
  answers: ReadonlyMap<string, ApprovalAnswer>,
  unansweredReason: string,
): unknown[] {
  return parts.map((raw) => {
    const part = asToolPart(raw);
    if (part?.state !== "approval-requested" || !part.approval?.id) return raw;
    const answer = answers.get(part.approval.id);
    const base = raw as Record<string, unknown>;
    if (!answer) return denied(base, part.approval.id, unansweredReason);
    return {
      ...base,
      state: "approval-responded",
      approval: {
        id: part.approval.id,
        approved: answer.approved,
        ...(answer.reason ? { reason: answer.reason } : {}),
      },
    };
  });
}

/** Every pending approval settled as denied (not run), with the reason the model will read. */
export function denyPendingApprovals(parts: readonly unknown[], reason: string): unknown[] {
  return answerApprovals(parts, new Map(), reason);
}

function denied(part: Record<string, unknown>, approvalId: string, reason: string) {
  return { ...part, state: "output-denied", approval: { id: approvalId, approved: false, reason } };
}

/** How each approval in `parts` was settled, by approval id (for a second tab's answer). */
export function approvalOutcomes(parts: readonly unknown[]): Map<string, string> {
  const outcomes = new Map<string, string>();
  for (const raw of parts) {
    const part = asToolPart(raw);
    const id = part?.approval?.id;
    if (!part || !id) continue;
    if (part.state === "approval-requested") outcomes.set(id, "pending");
    else if (part.approval?.approved === true) outcomes.set(id, "approved");
    else if (part.approval?.approved === false) outcomes.set(id, "denied");
  }
  return outcomes;
}

/** What a call reads as its result when its server stopped before the result was recorded. */
const INTERRUPTED_CALL =
  "Interrupted: the server stopped before this call's result was recorded, so it is not known whether it ran. It was not run again; call it again if it is still needed (a call that needs approval is asked again).";

/**
 * A reply cut off by a dead server: calls with no recorded result (being written, issued, or
 * approved but not yet run) end as errors, so a resumed run never re-runs an effectful call it
 * cannot know the outcome of.
 */
export function settleInterruptedCalls(parts: readonly unknown[]): unknown[] {
  return parts.map((raw) => {
    const part = asToolPart(raw);
    if (!part) return raw;
    if (!["input-streaming", "input-available", "approval-responded"].includes(part.state)) {
      return raw;
    }
    return {
      ...(raw as object),
      state: "output-error",
      input: (raw as { input?: unknown }).input ?? {},
      errorText: INTERRUPTED_CALL,
    };
  });
}

/** What a call reads as its result when the user stopped the reply before it finished. */
export const STOPPED_CALL = "Stopped by the user.";

/** A stopped reply: calls with no result yet end as errors reading STOPPED_CALL. */
export function settleStoppedCalls(parts: readonly unknown[]): {
  parts: unknown[];
  settled: string[];
} {
  const settled: string[] = [];
  const next = parts.map((raw) => {
    const part = asToolPart(raw);
    if (!part) return raw;
    if (!["input-streaming", "input-available", "approval-responded"].includes(part.state)) {
      return raw;
    }
    settled.push(part.toolCallId);
    return {
      ...(raw as object),
      state: "output-error",
      input: (raw as { input?: unknown }).input ?? {},
      errorText: STOPPED_CALL,
    };
  });
  return { parts: next, settled };
}
