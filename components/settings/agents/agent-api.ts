// The app's calls to /api/profiles and to a thread's agent (PATCH /api/threads/{id}), through
// the one API client: responses are parsed with the API's own schema, and a refusal throws its
// ApiError carrying the server's message and field errors, so no component reads error bodies.
import { z } from "zod";
import { type ProfileView, profileViewSchema } from "@/lib/agents/profile-view";
import { del, patch, post } from "@/lib/api/client";

const profileAnswer = z.object({ profile: profileViewSchema });

const profilePath = (slug: string) => `/api/profiles/${encodeURIComponent(slug)}`;

export async function postAgent(body: Record<string, unknown>): Promise<ProfileView> {
  const answer = await post("/api/profiles", body, profileAnswer, {
    fallback: "Couldn't create the agent.",
  });
  return answer.profile;
}

export async function patchAgent(
  slug: string,
  body: Record<string, unknown>,
): Promise<ProfileView> {
  const answer = await patch(profilePath(slug), body, profileAnswer, {
    fallback: "Couldn't save the agent.",
  });
  return answer.profile;
}

/** Resolves when the agent is gone, including when it was already deleted elsewhere (404). */
export function removeAgent(slug: string): Promise<void> {
  return del(profilePath(slug), { acceptStatuses: [404], fallback: "Couldn't delete the agent." });
}

/** Moves the thread onto another agent; answers the agent the server stored. */
export async function setThreadAgent(threadId: string, profile: string): Promise<string> {
  const answer = await patch(
    `/api/threads/${encodeURIComponent(threadId)}`,
    { profile },
    z.object({ thread: z.object({ profile: z.string() }) }),
    { fallback: "Couldn't change the agent." },
  );
  return answer.thread.profile;
}
