// Response shapes of the run journal API (`GET /api/threads/{id}/runs?request=…` and
// `GET /api/threads/{id}/runs/{runId}/events`). Handlers parse what they return with these, and
// the run timeline parses with them too: the browser loads this file, so it imports no server code.
import { z } from "zod";

export const runSummarySchema = z.object({
  id: z.string(),
  status: z.string(),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
  stepCount: z.number().int(),
});
export type RunSummary = z.infer<typeof runSummarySchema>;

export const runEventViewSchema = z.object({
  seq: z.number().int(),
  /** One of RunEventType (lib/agents/journal.ts); a reader shows types it does not know too. */
  type: z.string(),
  agent: z.string().nullable(),
  invocationId: z.string().nullable(),
  at: z.string(),
  payload: z.record(z.string(), z.unknown()),
});
export type RunEventView = z.infer<typeof runEventViewSchema>;

/** `GET /api/threads/{id}/runs/{runId}/events`. */
export const runEventsResponseSchema = z.object({
  run: runSummarySchema,
  events: z.array(runEventViewSchema),
});
export type RunEventsResponse = z.infer<typeof runEventsResponseSchema>;

/** `GET /api/threads/{id}/runs?request=<messageId>`: the run that answered that message. */
export const runLookupResponseSchema = z.object({ run: runSummarySchema.nullable() });
