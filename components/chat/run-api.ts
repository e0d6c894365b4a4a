// The run timeline's calls: the run that answered a message, its journal, and the agents'
// display names, through the one API client (parsed responses, one error type).
import { z } from "zod";
import {
  type RunEventsResponse,
  runEventsResponseSchema,
  runLookupResponseSchema,
} from "@/lib/agents/journal-schemas";
import { get } from "@/lib/api/client";
import type { AgentNames } from "@/lib/chat/run-timeline";

const threadPath = (threadId: string) => `/api/threads/${encodeURIComponent(threadId)}`;

/** The journal of the run that answered `requestMessageId`, or null when no run did. */
export async function fetchReplyJournal(
  threadId: string,
  requestMessageId: string,
  signal?: AbortSignal,
): Promise<RunEventsResponse | null> {
  const query = new URLSearchParams({ request: requestMessageId });
  const { run } = await get(`${threadPath(threadId)}/runs?${query}`, runLookupResponseSchema, {
    fallback: "Couldn't find the run behind this reply.",
    signal,
  });
  if (!run) return null;
  return get(
    `${threadPath(threadId)}/runs/${encodeURIComponent(run.id)}/events`,
    runEventsResponseSchema,
    { fallback: "Couldn't load the run's journal.", signal },
  );
}

const profilesSchema = z.object({
  profiles: z.array(z.object({ id: z.string(), name: z.string() })),
});

/**
 * The user's agents by slug. Names only dress the timeline up: when they cannot be had, it
 * shows slugs, so any failure here is an empty map rather than an error.
 */
export async function fetchAgentNames(signal?: AbortSignal): Promise<AgentNames> {
  try {
    const { profiles } = await get("/api/profiles", profilesSchema, { signal });
    return new Map(profiles.map((p) => [p.id, p.name]));
  } catch {
    return new Map();
  }
}
