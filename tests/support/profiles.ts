// Calls the agent profile routes and the thread routes they touch in-process, as a signed-in
// guest, and answers what a caller sees: status and parsed JSON.
import { randomUUID } from "node:crypto";
import { POST as chatRoute } from "@/app/api/chat/route";
import {
  DELETE as deleteProfileRoute,
  GET as getProfileRoute,
  PATCH as patchProfileRoute,
} from "@/app/api/profiles/[slug]/route";
import { POST as createProfileRoute, GET as listProfilesRoute } from "@/app/api/profiles/route";
import { GET as getThreadRoute, PATCH as patchThreadRoute } from "@/app/api/threads/[id]/route";
import { ensureThread } from "@/db/queries/threads";
import { currentActor } from "@/lib/auth/server";
import { guestHeaders } from "./auth";
import { waitForStoredReplies } from "./chat";

const BASE = "http://localhost:3000";

interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever the API answered.
  body: any;
}

async function answer(response: Response): Promise<Answer> {
  const text = await response.text();
  return { status: response.status, body: text === "" ? null : JSON.parse(text) };
}

function request(headers: Headers, path: string, method: string, body?: unknown): Request {
  const h = new Headers(headers);
  if (body !== undefined) h.set("content-type", "application/json");
  return new Request(`${BASE}${path}`, {
    method,
    headers: h,
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
}

const slugParams = (slug: string) => ({ params: Promise.resolve({ slug }) });
const threadParams = (id: string) => ({ params: Promise.resolve({ id }) });

export const api = (headers: Headers, userId: string) => ({
  list: async () => answer(await listProfilesRoute(request(headers, "/api/profiles", "GET"))),
  create: async (body: unknown) =>
    answer(await createProfileRoute(request(headers, "/api/profiles", "POST", body))),
  get: async (slug: string) =>
    answer(
      await getProfileRoute(request(headers, `/api/profiles/${slug}`, "GET"), slugParams(slug)),
    ),
  patch: async (slug: string, body: unknown) =>
    answer(
      await patchProfileRoute(
        request(headers, `/api/profiles/${slug}`, "PATCH", body),
        slugParams(slug),
      ),
    ),
  remove: async (slug: string) =>
    answer(
      await deleteProfileRoute(
        request(headers, `/api/profiles/${slug}`, "DELETE"),
        slugParams(slug),
      ),
    ),
  thread: async (id: string) =>
    answer(await getThreadRoute(request(headers, `/api/threads/${id}`, "GET"), threadParams(id))),
  patchThread: async (id: string, body: unknown) =>
    answer(
      await patchThreadRoute(
        request(headers, `/api/threads/${id}`, "PATCH", body),
        threadParams(id),
      ),
    ),
  /** Sends a chat message and, when it is answered, waits until the reply is stored. */
  chat: async (body: { id: string }) => {
    const response = await chatRoute(request(headers, "/api/chat", "POST", body));
    const text = await response.text();
    if (response.ok) await waitForStoredReplies({ id: userId }, body.id);
    return { status: response.status, text };
  },
});

export type Api = ReturnType<typeof api>;

export async function signedIn(): Promise<{ headers: Headers; api: Api; userId: string }> {
  const headers = await guestHeaders();
  const actor = await currentActor(headers);
  if (!actor) throw new Error("the guest session did not resolve");
  return { headers, api: api(headers, actor.id), userId: actor.id };
}

export const writer = {
  id: "writer",
  name: "Writer",
  systemPrompt: "You write clear prose.",
};

export async function newThread(userId: string): Promise<string> {
  const threadId = randomUUID();
  const made = await ensureThread({ userId, threadId, model: "baton/local", title: "t" });
  if (!made) throw new Error("thread not created");
  return threadId;
}

export function chatMessage(threadId: string, extra: Record<string, unknown> = {}) {
  return {
    trigger: "submit-message",
    id: threadId,
    message: { id: randomUUID(), role: "user", parts: [{ type: "text", text: "hello" }] },
    ...extra,
  };
}
