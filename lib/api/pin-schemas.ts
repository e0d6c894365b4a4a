// The pins API's answers as the browser parses them (`/api/threads/{id}/pins`).
import { z } from "zod";

const pinViewSchema = z.object({
  id: z.string(),
  text: z.string(),
  source: z.enum(["user", "agent", "handoff"]),
  state: z.enum(["pinned", "unpinned"]),
  createdAt: z.string(),
});

export type PinViewAnswer = z.output<typeof pinViewSchema>;

export const pinAnswerSchema = z.object({ pin: pinViewSchema });
