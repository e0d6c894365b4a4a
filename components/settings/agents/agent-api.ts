// The app's calls to /api/profiles and to a thread's agent (PATCH /api/threads/{id}). Responses
// are parsed with the API's own schema; a refusal throws one AgentApiError carrying the server's
// message and field errors, so no component reads error bodies itself.
import { z } from "zod";
import { type ProfileView, profileViewSchema } from "@/lib/agents/profile-view";
import type { FieldErrors } from "@/lib/errors";

const errorBodySchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    fields: z.record(z.string(), z.array(z.string())).optional(),
  }),
});

export class AgentApiError extends Error {
  readonly status: number;
  readonly code: string | null;
  readonly fields: FieldErrors | undefined;

  constructor(message: string, status: number, code: string | null, fields?: FieldErrors) {
    super(message);
    this.name = "AgentApiError";
    this.status = status;
    this.code = code;
    this.fields = fields;
  }
}

async function failure(response: Response, fallback: string): Promise<AgentApiError> {
  const parsed = errorBodySchema.safeParse(await response.json().catch(() => null));
  if (!parsed.success) return new AgentApiError(fallback, response.status, null);
  const { message, code, fields } = parsed.data.error;
  return new AgentApiError(message, response.status, code, fields);
}

const profileAnswer = z.object({ profile: profileViewSchema });

function sendJson(method: string, body: unknown): RequestInit {
  return { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
}

const profilePath = (slug: string) => `/api/profiles/${encodeURIComponent(slug)}`;

export async function fetchAgents(): Promise<ProfileView[]> {
  const response = await fetch("/api/profiles", { cache: "no-store" });
  if (!response.ok) throw await failure(response, "Couldn't load your agents.");
  return z.object({ profiles: z.array(profileViewSchema) }).parse(await response.json()).profiles;
}

export async function postAgent(body: Record<string, unknown>): Promise<ProfileView> {
  const response = await fetch("/api/profiles", sendJson("POST", body));
  if (!response.ok) throw await failure(response, "Couldn't create the agent.");
  return profileAnswer.parse(await response.json()).profile;
}

export async function patchAgent(
  slug: string,
  body: Record<string, unknown>,
): Promise<ProfileView> {
  const response = await fetch(profilePath(slug), sendJson("PATCH", body));
  if (!response.ok) throw await failure(response, "Couldn't save the agent.");
  return profileAnswer.parse(await response.json()).profile;
}

/** Resolves when the agent is gone, including when it was already deleted elsewhere (404). */
export async function removeAgent(slug: string): Promise<void> {
  const response = await fetch(profilePath(slug), { method: "DELETE" });
  if (response.ok || response.status === 404) return;
  throw await failure(response, "Couldn't delete the agent.");
}

/** Moves the thread onto another agent; answers the agent the server stored. */
export async function setThreadAgent(threadId: string, profile: string): Promise<string> {
  const response = await fetch(
    `/api/threads/${encodeURIComponent(threadId)}`,
    sendJson("PATCH", { profile }),
  );
  if (!response.ok) throw await failure(response, "Couldn't change the agent.");
  return z.object({ thread: z.object({ profile: z.string() }) }).parse(await response.json()).thread
    .profile;
}
