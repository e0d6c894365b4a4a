// Account linking keeps a guest's agents: they move to the account with the guest's threads,
// and a slug both own is kept twice, the guest's renamed `<slug>-guest`, its threads following.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { POST as chatRoute } from "@/app/api/chat/route";
import { POST as createProfileRoute, GET as listProfilesRoute } from "@/app/api/profiles/route";
import { GET as getThreadRoute } from "@/app/api/threads/[id]/route";
import { guestSlugFor } from "@/db/queries/profile-transfer";
import { currentActor } from "@/lib/auth/server";
import { guestHeaders, signIn, signUp } from "../support/auth";
import { waitForStoredReplies } from "../support/chat";

const BASE = "http://localhost:3000";
function jsonRequest(headers: Headers, path: string, method: string, body?: unknown): Request {
  const h = new Headers(headers);
  if (body !== undefined) h.set("content-type", "application/json");
  return new Request(`${BASE}${path}`, {
    method,
    headers: h,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function createAgent(headers: Headers, id: string, name: string) {
  const res = await createProfileRoute(
    jsonRequest(headers, "/api/profiles", "POST", { id, name, systemPrompt: "p" }),
  );
  expect(res.status).toBe(201);
}

async function startThread(headers: Headers, profile: string): Promise<string> {
  const threadId = randomUUID();
  const res = await chatRoute(
    jsonRequest(headers, "/api/chat", "POST", {
      trigger: "submit-message",
      id: threadId,
      profile,
      message: { id: randomUUID(), role: "user", parts: [{ type: "text", text: "hi" }] },
    }),
  );
  expect(res.status).toBe(200);
  await res.text();
  const actor = await currentActor(headers);
  if (!actor) throw new Error("no session");
  await waitForStoredReplies(actor, threadId);
  return threadId;
}

async function threadView(headers: Headers, id: string) {
  const res = await getThreadRoute(jsonRequest(headers, `/api/threads/${id}`, "GET"), {
    params: Promise.resolve({ id }),
  });
  return {
    status: res.status,
    body: (await res.json()) as { thread: { profile: string }; sessions: { profile: string }[] },
  };
}

beforeAll(() => {
  process.env.BATON_LOCAL_DELAY_MS = "0";
});

describe("a guest's agents on account linking", () => {
  it("move to the account; a slug both own is kept twice and the guest's threads follow", async () => {
    const email = `${randomUUID()}@example.test`;
    const account = await signUp(email);
    await createAgent(account, "writer", "Account writer");
    const accountThread = await startThread(account, "writer");

    const guest = await guestHeaders();
    await createAgent(guest, "writer", "Guest writer");
    await createAgent(guest, "writer-guest", "Guest's own second writer");
    await createAgent(guest, "solo", "Solo");
    const guestThread = await startThread(guest, "writer");
    const soloThread = await startThread(guest, "solo");

    const linked = await signIn(email, guest);
    const listed = await listProfilesRoute(jsonRequest(linked, "/api/profiles", "GET"));
    const { profiles } = (await listed.json()) as { profiles: { id: string; name: string }[] };
    expect(profiles.map((p) => [p.id, p.name])).toEqual([
      ["default", "Default"],
      ["writer", "Account writer"],
      ["writer-guest-2", "Guest writer"],
      ["writer-guest", "Guest's own second writer"],
      ["solo", "Solo"],
    ]);

    const moved = await threadView(linked, guestThread);
    expect(moved.status).toBe(200);
    expect(moved.body.thread.profile).toBe("writer-guest-2");
    expect(moved.body.sessions.map((s) => s.profile)).toEqual(["writer-guest-2"]);
    expect((await threadView(linked, soloThread)).body.thread.profile).toBe("solo");
    const own = await threadView(linked, accountThread);
    expect(own.body.thread.profile).toBe("writer");
    expect(own.body.sessions.map((s) => s.profile)).toEqual(["writer"]);
  });
});

describe("guestSlugFor", () => {
  it("adds -guest, then a number, and stays within 40 characters", () => {
    expect(guestSlugFor("writer", new Set(["writer"]))).toBe("writer-guest");
    expect(guestSlugFor("writer", new Set(["writer", "writer-guest"]))).toBe("writer-guest-2");
    const long = `a${"b".repeat(39)}`;
    const renamed = guestSlugFor(long, new Set([long]));
    expect(renamed).toHaveLength(40);
    expect(renamed.endsWith("-guest")).toBe(true);
  });
});
