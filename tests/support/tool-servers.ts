// Calls the tool-server routes in-process as a signed-in guest and answers what a caller sees:
// status and parsed JSON.

import { POST as refresh } from "@/app/api/tool-servers/[id]/refresh/route";
import { DELETE, GET as getOne, PATCH } from "@/app/api/tool-servers/[id]/route";
import { POST as create, GET as list } from "@/app/api/tool-servers/route";
import { currentActor } from "@/lib/auth/server";
import { guestHeaders } from "./auth";

const BASE = "http://localhost:3000";

export interface Answer {
  status: number;
  /** The response text as sent (to search it for secrets). */
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever the API answered.
  body: any;
}

async function answer(response: Response): Promise<Answer> {
  const text = await response.text();
  return { status: response.status, text, body: text === "" ? null : JSON.parse(text) };
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

const idParams = (id: string) => ({ params: Promise.resolve({ id }) });

export const toolServerApi = (headers: Headers) => ({
  list: async () => answer(await list(request(headers, "/api/tool-servers", "GET"))),
  create: async (body: unknown) =>
    answer(await create(request(headers, "/api/tool-servers", "POST", body))),
  get: async (id: string) =>
    answer(await getOne(request(headers, `/api/tool-servers/${id}`, "GET"), idParams(id))),
  patch: async (id: string, body: unknown) =>
    answer(await PATCH(request(headers, `/api/tool-servers/${id}`, "PATCH", body), idParams(id))),
  remove: async (id: string) =>
    answer(await DELETE(request(headers, `/api/tool-servers/${id}`, "DELETE"), idParams(id))),
  refresh: async (id: string) =>
    answer(
      await refresh(request(headers, `/api/tool-servers/${id}/refresh`, "POST"), idParams(id)),
    ),
});

export type ToolServerApi = ReturnType<typeof toolServerApi>;

export async function signedInWithTools(): Promise<{
  headers: Headers;
  api: ToolServerApi;
  userId: string;
}> {
  const headers = await guestHeaders();
  const actor = await currentActor(headers);
  if (!actor) throw new Error("the guest session did not resolve");
  return { headers, api: toolServerApi(headers), userId: actor.id };
}
