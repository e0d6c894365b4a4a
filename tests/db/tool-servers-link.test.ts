// Account linking keeps what a guest set up and ran: its tool servers move to the account (a
// slug both own is kept twice, the guest's renamed `<slug>-guest`, its agents' allow-lists
// following), and its runs move with its threads, so their timelines survive the guest's
// deletion.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { POST as chatRoute } from "@/app/api/chat/route";
import { POST as createProfileRoute, GET as listProfilesRoute } from "@/app/api/profiles/route";
import { GET as runLookupRoute } from "@/app/api/threads/[id]/runs/route";
import { GET as listServersRoute } from "@/app/api/tool-servers/route";
import { renameServerInAllow } from "@/db/queries/tool-server-transfer";
import { insertToolServer } from "@/db/queries/tool-servers";
import { currentActor } from "@/lib/auth/server";
import { guestHeaders, signIn, signUp } from "../support/auth";
import { waitForStoredReplies } from "../support/chat";

const BASE = "http://localhost:3000";
function request(headers: Headers, path: string, method = "GET", body?: unknown): Request {
  const h = new Headers(headers);
  if (body !== undefined) h.set("content-type", "application/json");
  return new Request(`${BASE}${path}`, {
    method,
    headers: h,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function userIdOf(headers: Headers): Promise<string> {
  const actor = await currentActor(headers);
  if (!actor) throw new Error("no session");
  return actor.id;
}

async function addServer(headers: Headers, slug: string, url: string) {
  await insertToolServer({ userId: await userIdOf(headers), slug, fields: { url } });
}

async function addAgent(headers: Headers, id: string, allow: string[]) {
  const res = await createProfileRoute(
    request(headers, "/api/profiles", "POST", {
      id,
      name: id,
      systemPrompt: "p",
      tools: { allow: ["read_file", ...allow] },
    }),
  );
  expect(res.status).toBe(201);
}

async function servers(headers: Headers) {
  const res = await listServersRoute(request(headers, "/api/tool-servers"));
  const body = (await res.json()) as { servers: { slug: string; url: string }[] };
  return body.servers.map((s) => [s.slug, s.url]);
}

async function allowLists(headers: Headers) {
  const res = await listProfilesRoute(request(headers, "/api/profiles"));
  const body = (await res.json()) as { profiles: { id: string; tools: { allow: string[] } }[] };
  return Object.fromEntries(body.profiles.map((p) => [p.id, p.tools.allow]));
}

beforeAll(() => {
  process.env.BATON_LOCAL_DELAY_MS = "0";
});

describe("a guest's tool servers and runs on account linking", () => {
  it("move to the account; a slug both own is kept twice and the guest's agents follow", async () => {
    const email = `${randomUUID()}@example.test`;
    const account = await signUp(email);
    await addServer(account, "demo", "https://account.example.test/mcp");
    await addAgent(account, "mine", ["mcp:demo/*"]);

    const guest = await guestHeaders();
    await addServer(guest, "demo", "https://guest.example.test/mcp");
    await addServer(guest, "demo-guest", "https://guest-two.example.test/mcp");
    await addServer(guest, "solo", "https://solo.example.test/mcp");
    await addAgent(guest, "helper", ["mcp:demo/search", "mcp:demo-guest/*", "mcp:solo/*"]);

    const linked = await signIn(email, guest);
    expect(await servers(linked)).toEqual([
      ["demo", "https://account.example.test/mcp"],
      ["demo-guest", "https://guest-two.example.test/mcp"],
      ["demo-guest-2", "https://guest.example.test/mcp"],
      ["solo", "https://solo.example.test/mcp"],
    ]);
    const allow = await allowLists(linked);
    expect(allow.mine).toEqual(["read_file", "mcp:demo/*"]);
    expect(allow.helper).toEqual([
      "read_file",
      "mcp:demo-guest-2/search",
      "mcp:demo-guest/*",
      "mcp:solo/*",
    ]);
  });

  it("keep the runs of the guest's threads, so a reply still opens its journal", async () => {
    const email = `${randomUUID()}@example.test`;
    await signUp(email);
    const guest = await guestHeaders();
    const threadId = randomUUID();
    const messageId = randomUUID();
    const res = await chatRoute(
      request(guest, "/api/chat", "POST", {
        trigger: "submit-message",
        id: threadId,
        message: { id: messageId, role: "user", parts: [{ type: "text", text: "hi" }] },
      }),
    );
    expect(res.status).toBe(200);
    await res.text();
    const guestActor = await currentActor(guest);
    if (!guestActor) throw new Error("no session");
    await waitForStoredReplies(guestActor, threadId);

    const linked = await signIn(email, guest);
    const lookup = await runLookupRoute(
      request(linked, `/api/threads/${threadId}/runs?request=${messageId}`),
      { params: Promise.resolve({ id: threadId }) },
    );
    expect(lookup.status).toBe(200);
    const body = (await lookup.json()) as { run: { status: string } | null };
    expect(body.run?.status).toBe("completed");
  });
});

describe("renameServerInAllow", () => {
  it("renames only the entries of that server", () => {
    expect(
      renameServerInAllow(["read_file", "mcp:a/*", "mcp:a/x", "mcp:ab/*"], "a", "a-guest"),
    ).toEqual(["read_file", "mcp:a-guest/*", "mcp:a-guest/x", "mcp:ab/*"]);
  });
});
