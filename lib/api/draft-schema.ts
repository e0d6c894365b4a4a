// A drafted handoff waiting for the user's review, as the browser parses it (the reset API's 202
// answer and `ThreadView.draft`), and the thread's setting for when resets stop at a draft.
import { z } from "zod";
import { handoffArtifactSchema } from "@/lib/handoff/artifact";

/** `never`: resets commit at once; `manual`: the reset button asks for a draft; `always`: every reset does. */
export const reviewSettingSchema = z.enum(["never", "manual", "always"]);
export type ReviewSetting = z.output<typeof reviewSettingSchema>;

export const reviewDraftSchema = z.object({
  threadId: z.string(),
  fromSession: z.number(),
  trigger: z.enum(["initial", "threshold", "manual", "agent_handoff", "continuation"]),
  state: z.string(),
  artifact: handoffArtifactSchema,
  dropped: z.array(z.object({ field: z.string(), item: z.string() })).default([]),
  source: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
});
export type ReviewDraft = z.output<typeof reviewDraftSchema>;
