// Calls the app's route handlers in-process the way Next does (a Request and `{ params }`), seeds a
// signed-up victim with real data through those same routes, and hashes every table.
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { getDb, rowsOf } from "@/db/client";
import { getAuth } from "@/lib/auth/server";
import { type HttpMethod, listRouteFiles, type RouteFile, type Victim } from "./routes";
import { type IgnoredColumns, tableHashes } from "./table-hash";

export const APP_ORIGIN = "http://localhost:3000";
/** Another port on the same host: same site, different origin. */
export const OTHER_ORIGIN = "http://localhost:4000";

type Handler = (
  request: Request,
  context: { params: Promise<Record<string, string | string[]>> },
) => Promise<Response>;

const modules = new Map<string, Promise<Record<string, unknown>>>();

export async function handlerOf(route: RouteFile, method: HttpMethod): Promise<Handler> {
  let loading = modules.get(route.absolute);
  if (!loading) {
    loading = import(/* @vite-ignore */ route.absolute);
    modules.set(route.absolute, loading);
  }
  const handler = (await loading)[method];
  if (typeof handler !== "function") throw new Error(`${route.file} exports no ${method}`);
  return handler as Handler;
}

export function routeAt(pattern: string): RouteFile {
  const route = listRouteFiles().find((r) => r.pattern === pattern);
  if (!route) throw new Error(`no route ${pattern}`);
  return route;
}

/** Calls a route's handler with a request for `url` and the given params. */
export async function callRoute(
  route: RouteFile,
  method: HttpMethod,
  url: string,
  init: { headers: Headers; body?: BodyInit | null; params: Record<string, string | string[]> },
): Promise<Response> {
  const handler = await handlerOf(route, method);
  const body = method === "GET" || method === "HEAD" ? undefined : (init.body ?? undefined);
  const request = new Request(url, {
    method,
    headers: init.headers,
    body,
    ...(body instanceof ReadableStream ? { duplex: "half" } : {}),
  } as RequestInit);
  return handler(request, { params: Promise.resolve(init.params) });
}

export async function dbHashes(ignore?: IgnoredColumns): Promise<Record<string, string>> {
  return tableHashes(async (text) => rowsOf(await getDb().execute(sql.raw(text))), ignore);
}

/** Headers a same-origin browser request carries, plus the cookie. */
export function sameOrigin(cookie: string, contentType = "application/json"): Headers {
  return new Headers({
    cookie,
    host: "localhost:3000",
    origin: APP_ORIGIN,
    "sec-fetch-site": "same-origin",
    "content-type": contentType,
  });
}

async function json(response: Response, status: number, what: string) {
  const text = await response.text();
  if (response.status !== status) {
    throw new Error(`seeding: ${what} answered ${response.status}, not ${status}: ${text}`);
  }
  return JSON.parse(text) as Record<string, unknown>;
}

/**
 * A signed-up user (so tokens are allowed) with a thread, a share link, a handoff, a token, an
 * agent profile and a tool server.
 */
export async function seedVictim(): Promise<{ victim: Victim; cookie: string }> {
  const email = `victim-${randomUUID()}@example.test`;
  const password = "victim password 123";
  const signUp = await getAuth().api.signUpEmail({
    body: { email, password, name: "Victim" },
    headers: new Headers({ origin: APP_ORIGIN, host: "localhost:3000" }),
    asResponse: true,
  });
  const cookie = signUp.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  if (!cookie) throw new Error(`sign-up gave no cookie (status ${signUp.status})`);

  const headers = sameOrigin(cookie);
  const threadId = randomUUID();
  const chat = await callRoute(routeAt("/api/chat"), "POST", `${APP_ORIGIN}/api/chat`, {
    headers,
    params: {},
    body: JSON.stringify({
      trigger: "submit-message",
      id: threadId,
      message: { id: randomUUID(), role: "user", parts: [{ type: "text", text: "remember x" }] },
    }),
  });
  if (chat.status !== 200) throw new Error(`seeding: chat answered ${chat.status}`);
  await chat.text();
  const threadRoute = routeAt("/api/threads/[id]");
  const deadline = Date.now() + 20_000;
  for (;;) {
    const res = await callRoute(threadRoute, "GET", `${APP_ORIGIN}/api/threads/${threadId}`, {
      headers,
      params: { id: threadId },
    });
    const view = (await res.json()) as { messages?: { metadata?: { status?: string } }[] };
    const statuses = (view.messages ?? []).map((m) => m.metadata?.status);
    // The reply's own outcome does not matter here, only that the thread holds its messages.
    if (statuses.length === 2 && !statuses.includes("partial")) break;
    if (Date.now() > deadline) throw new Error(`seeding: the reply never completed (${statuses})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  const [run] = rowsOf<{ id: string }>(
    await getDb().execute(sql`select id from runs where thread_id = ${threadId} limit 1`),
  );
  // "remember x" pinned x through the pin tool.
  const [pin] = rowsOf<{ id: string }>(
    await getDb().execute(sql`select id from thread_pins where thread_id = ${threadId} limit 1`),
  );

  const share = await json(
    await callRoute(
      routeAt("/api/threads/[id]/share"),
      "POST",
      `${APP_ORIGIN}/api/threads/${threadId}/share`,
      { headers, params: { id: threadId } },
    ),
    201,
    "sharing the thread",
  );
  const handoff = await json(
    await callRoute(routeAt("/api/handoffs"), "POST", `${APP_ORIGIN}/api/handoffs`, {
      headers,
      params: {},
      body: JSON.stringify({
        key: "victim-notes",
        artifact: { goal: "Victim's work", state_summary: "Half done" },
      }),
    }),
    201,
    "writing a handoff",
  );
  const token = await json(
    await callRoute(routeAt("/api/tokens"), "POST", `${APP_ORIGIN}/api/tokens`, {
      headers,
      params: {},
      body: JSON.stringify({ name: "victim agent", scopes: ["read", "write", "groom"] }),
    }),
    201,
    "creating a token",
  );
  const profile = await json(
    await callRoute(routeAt("/api/profiles"), "POST", `${APP_ORIGIN}/api/profiles`, {
      headers,
      params: {},
      body: JSON.stringify({ id: "victim-agent", name: "Victim's agent", systemPrompt: "Help." }),
    }),
    201,
    "creating an agent profile",
  );
  // Unresolvable on purpose: stored with its failure as lastError, no server needed.
  const toolServer = await json(
    await callRoute(routeAt("/api/tool-servers"), "POST", `${APP_ORIGIN}/api/tool-servers`, {
      headers,
      params: {},
      body: JSON.stringify({ slug: "victim-tools", url: "https://victim-tools.invalid/mcp" }),
    }),
    201,
    "adding a tool server",
  );
  return {
    cookie,
    victim: {
      threadId,
      shareToken: String(share.token),
      ...(run ? { runId: run.id } : {}),
      ...(pin ? { pinId: pin.id } : {}),
      handoffKey: "victim-notes",
      handoffId: String(handoff.id),
      tokenId: String(token.id),
      token: String(token.token),
      profileId: String((profile.profile as { id: string }).id),
      toolServerId: String((toolServer.server as { id: string }).id),
      email,
      password,
    },
  };
}
