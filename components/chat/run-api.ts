// The run timeline's calls: the run that answered a message, its journal, and the agents'
// display names. Responses are parsed so a changed API fails loudly here instead of rendering
// `undefined`.
import { z } from "zod";
import {
  type RunEventsResponse,
  runEventsResponseSchema,
  runLookupResponseSchema,
} from "@/lib/agents/journal-schemas";
import type { AgentNames } from "@/lib/chat/run-timeline";

const errorBodySchema = z.object({ error: z.object({ message: z.string() }) });

async function failure(response: Response, fallback: string): Promise<Error> {
  const parsed = errorBodySchema.safeParse(await response.json().catch(() => null));
  return new Error(parsed.success ? parsed.data.error.message : fallback);
}

const threadPath = (threadId: string) => `/api/threads/${encodeURIComponent(threadId)}`;

/** The journal of the run that answered `requestMessageId`, or null when no run did. */
export async function fetchReplyJournal(
  threadId: string,
  requestMessageId: string,
  signal?: AbortSignal,
): Promise<RunEventsResponse | null> {
  const query = new URLSearchParams({ request: requestMessageId });
  const found = await fetch(`${threadPath(threadId)}/runs?${query}`, { cache: "no-store", signal });
  if (!found.ok) throw await failure(found, "Couldn't find the run behind this reply.");
  const { run } = runLookupResponseSchema.parse(await found.json());
  if (!run) return null;
  const response = await fetch(
    `${threadPath(threadId)}/runs/${encodeURIComponent(run.id)}/events`,
    { cache: "no-store", signal },
  );
  if (!response.ok) throw await failure(response, "Couldn't load the run's journal.");
  return runEventsResponseSchema.parse(await response.json());
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
    const response = await fetch("/api/profiles", { cache: "no-store", signal });
    if (!response.ok) return new Map();
    const parsed = profilesSchema.safeParse(await response.json());
    return new Map(parsed.success ? parsed.data.profiles.map((p) => [p.id, p.name]) : []);
  } catch {
    return new Map();
  }
}
