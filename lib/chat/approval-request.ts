// The approval answer a chat request may carry: the assistant message sent back after the user
// pressed Approve, Deny or Allow for this session (AI SDK `addToolApprovalResponse`). Only the
// answers are read from it — `{approvalId, approved, reason}` of parts in state
// `approval-responded` — never its texts, inputs or outputs: the stored message stays the truth.
import { z } from "zod";
import type { ApprovalAnswer } from "@/lib/agents/tool-parts";

const MAX_APPROVAL_REASON_CHARS = 1_000;
/** Parts an assistant message sent back may have (a long run has many tool parts). */
const MAX_ASSISTANT_PARTS = 2_000;

const answeredToolPartSchema = z.looseObject({
  type: z.string().regex(/^(tool-.+|dynamic-tool)$/),
  toolCallId: z.string().min(1).max(200),
  state: z.literal("approval-responded"),
  approval: z.object({
    id: z.string().min(1).max(200),
    approved: z.boolean(),
    reason: z.string().max(MAX_APPROVAL_REASON_CHARS).optional(),
  }),
});

function answersIn(parts: readonly unknown[]): ApprovalAnswer[] {
  return parts.flatMap((part) => {
    const parsed = answeredToolPartSchema.safeParse(part);
    if (!parsed.success) return [];
    const { id, approved, reason } = parsed.data.approval;
    return [{ approvalId: id, approved, ...(reason ? { reason } : {}) }];
  });
}

export const approvalMessageSchema = z
  .object({
    id: z.string().min(1).max(128),
    role: z.literal("assistant"),
    parts: z.array(z.looseObject({ type: z.string().max(200) })).max(MAX_ASSISTANT_PARTS),
  })
  .refine((message) => answersIn(message.parts).length > 0, {
    message: "An assistant message is accepted only to answer a tool approval.",
    path: ["parts"],
  });

/** Approval ids answered "Allow for this session" (granted only if approved). */
export const allowForSessionSchema = z.array(z.string().min(1).max(200)).max(100).optional();

export interface ApprovalReplyInput {
  message: z.output<typeof approvalMessageSchema>;
  allowForSession?: string[];
}

export function approvalReplyOf({ message, allowForSession = [] }: ApprovalReplyInput) {
  return { messageId: message.id, answers: answersIn(message.parts), allowForSession };
}
