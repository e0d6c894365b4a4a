// Account linking keeps a guest's handoffs: a guest signs in (or signs up) through Better Auth
// and its handoffs move to the account; a key both own is kept twice, the guest's re-keyed
// `<key>.guest` with valid content ids, its history and receipts, and a one-shot notice.
import { randomBytes, randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { POST as authRoute } from "@/app/api/auth/[...all]/route";
import { getDb } from "@/db/client";
import { guestKey, pendingAccountNotices } from "@/db/queries/handoff-merge";
import { handoffReceipts, handoffs, users } from "@/db/schema";
import { currentActor, pendingLinkNotices } from "@/lib/auth/server";
import { HANDOFF_SCHEMA_VERSION } from "@/lib/handoff/artifact";
import { contentId } from "@/lib/handoff/content-id";
import { guestHeaders, signIn, signUp } from "../support/auth";
import { acceptHandoff, artifactOf, getHandoff, listPage, upsert } from "./handoff-support";

const BASE = "http://localhost:3000";
type Body = Record<string, unknown>;

/** What the app shell sends once it has shown the notices, through the auth route. */
async function markSeen(headers: Headers, ids: unknown[]) {
  const h = new Headers(headers);
  h.set("content-type", "application/json");
  const response = await authRoute(
    new Request(`${BASE}/api/auth/link-notices/seen`, {
      method: "POST",
      headers: h,
      body: JSON.stringify({ ids }),
    }),
    { params: Promise.resolve({ all: ["link-notices", "seen"] }) },
  );
  const body = (await response.json()) as { marked?: number };
  return response.status === 200
    ? { status: 200, marked: body.marked }
    : { status: response.status };
}

async function userIdOf(headers: Headers): Promise<string> {
  const actor = await currentActor(headers);
  if (!actor) throw new Error("no session");
  return actor.id;
}

const uniqueKey = (label: string) => `${label}-${randomBytes(4).toString("hex")}`;
const uniqueEmail = () => `${randomUUID()}@example.test`;

const idFor = (key: string, body: Body) =>
  contentId({
    schema_version: HANDOFF_SCHEMA_VERSION,
    handoff_key: key,
    revision: body.revision as number,
    artifact: body.artifact as never,
  });

async function receiptsOf(ownerId: string, key: string) {
  const rows = await getDb()
    .select({ receipt: handoffReceipts })
    .from(handoffReceipts)
    .innerJoin(handoffs, eq(handoffs.id, handoffReceipts.handoffId))
    .where(and(eq(handoffs.ownerId, ownerId), eq(handoffs.handoffKey, key)));
  return rows.map((r) => r.receipt);
}

describe("account linking", () => {
  it("keeps both handoffs on a key collision: the guest's becomes <key>.guest with its history, receipts and valid ids", async () => {
    const key = uniqueKey("trip");
    const email = uniqueEmail();
    const account = await signUp(email);
    const accountId = await userIdOf(account);
    const own = await upsert(account, {
      key,
      artifact: artifactOf({ goal: "the account's trip" }),
    });
    expect(own.status).toBe(201);

    const guest = await guestHeaders();
    const guestId = await userIdOf(guest);
    const first = await upsert(guest, { key, artifact: artifactOf({ goal: "guest trip, v1" }) });
    const second = await upsert(guest, {
      key,
      artifact: artifactOf({ goal: "guest trip, v2", confirmed_facts: ["the ferry leaves at 9"] }),
    });
    expect([first.status, second.status]).toEqual([201, 201]);
    const accepted = await acceptHandoff(guest, key, {
      id: second.body.id,
      receiver: "agent:planner",
    });
    expect(accepted.status).toBe(201);
    const guestCurrent = (await getHandoff(guest, key)).body;

    const linked = await signIn(email, guest);
    expect(await userIdOf(linked)).toBe(accountId);
    // The guest account is gone, and nothing it owned went with it.
    expect(await getDb().select().from(users).where(eq(users.id, guestId))).toEqual([]);

    // The account's own record is untouched.
    expect((await getHandoff(linked, key)).body).toEqual((await getHandoff(account, key)).body);
    expect((await getHandoff(linked, key)).body).toMatchObject({
      id: own.body.id,
      revision: 1,
      artifact: { goal: "the account's trip" },
    });

    // The guest's record, re-keyed, with the same content and state, and ids for its new key.
    const keptAs = `${key}.guest`;
    const current = (await getHandoff(linked, keptAs)).body;
    expect(current).toMatchObject({
      key: keptAs,
      revision: 2,
      state: "accepted",
      artifact: guestCurrent.artifact,
      markdown: guestCurrent.markdown,
      created_by: guestCurrent.created_by,
    });
    expect(current.id).toBe(idFor(keptAs, current));
    expect(current.id).not.toBe(second.body.id);
    const older = (await getHandoff(linked, keptAs, 1)).body;
    expect(older).toMatchObject({
      revision: 1,
      state: "superseded",
      artifact: first.body.artifact,
    });
    expect(older.id).toBe(idFor(keptAs, older));

    // The receipt moved and names the revision's new id; accepting again finds it.
    const receipts = await receiptsOf(accountId, keptAs);
    expect(receipts.map((r) => [r.receiver, r.revision, r.contentId])).toEqual([
      ["agent:planner", 2, current.id],
    ]);
    const retried = await acceptHandoff(linked, keptAs, {
      id: current.id,
      receiver: "agent:planner",
    });
    expect(retried.status).toBe(200);
    expect(await receiptsOf(accountId, keptAs)).toHaveLength(1);

    // The list shows both, and the notice is pending until the app marks it seen.
    const keys = (await listPage(linked)).body.handoffs.map((h) => h.key);
    expect(keys).toEqual(expect.arrayContaining([key, keptAs]));
    const actor = await currentActor(linked);
    if (!actor) throw new Error("no session");
    const notices = await pendingLinkNotices(actor);
    expect(notices.map((n) => n.data)).toEqual([{ kind: "handoff_kept_as", key, keptAs }]);
    expect(await pendingLinkNotices(actor)).toEqual(notices);
    // Another user cannot mark it; its owner can, once.
    const stranger = await signUp(uniqueEmail());
    expect(await markSeen(stranger, [notices[0]?.id])).toEqual({ status: 200, marked: 0 });
    expect(await pendingLinkNotices(actor)).toEqual(notices);
    expect(await markSeen(linked, ["not-a-uuid"])).toMatchObject({ status: 400 });
    expect(await markSeen(linked, [notices[0]?.id])).toEqual({ status: 200, marked: 1 });
    expect(await pendingLinkNotices(actor)).toEqual([]);
    expect(await markSeen(linked, [notices[0]?.id])).toEqual({ status: 200, marked: 0 });
  });

  it("without a collision the guest's handoff moves with its key and its ids, and no notice is left", async () => {
    const key = uniqueKey("notes");
    const guest = await guestHeaders();
    const stored = await upsert(guest, { key, artifact: artifactOf({ goal: "guest notes" }) });
    const before = (await getHandoff(guest, key)).body;

    const account = await signUp(uniqueEmail(), guest);
    const after = (await getHandoff(account, key)).body;
    expect(after).toEqual(before);
    expect(after.id).toBe(stored.body.id);
    expect(await pendingAccountNotices({ userId: await userIdOf(account) })).toEqual([]);
  });

  it("picks <key>.guest-2 when the account already has <key>.guest, and a guest's own <key>.guest keeps its key", async () => {
    const key = uniqueKey("plan");
    const email = uniqueEmail();
    const account = await signUp(email);
    await upsert(account, { key, artifact: artifactOf({ goal: "account plan" }) });
    await upsert(account, { key: `${key}.guest`, artifact: artifactOf({ goal: "account guest" }) });
    const guest = await guestHeaders();
    await upsert(guest, { key, artifact: artifactOf({ goal: "guest plan" }) });
    const shortKey = uniqueKey("x");
    await upsert(guest, { key: shortKey, artifact: artifactOf({ goal: "guest x" }) });
    await upsert(guest, {
      key: `${shortKey}.guest`,
      artifact: artifactOf({ goal: "guest x.guest" }),
    });

    const linked = await signIn(email, guest);
    const goalOf = async (k: string) =>
      ((await getHandoff(linked, k)).body.artifact as { goal: string } | undefined)?.goal;
    expect(await goalOf(key)).toBe("account plan");
    expect(await goalOf(`${key}.guest`)).toBe("account guest");
    expect(await goalOf(`${key}.guest-2`)).toBe("guest plan");
    expect(await goalOf(shortKey)).toBe("guest x");
    expect(await goalOf(`${shortKey}.guest`)).toBe("guest x.guest");
    const renamed = (await getHandoff(linked, `${key}.guest-2`)).body;
    expect(renamed.id).toBe(idFor(`${key}.guest-2`, renamed));
    const notices = await pendingAccountNotices({ userId: await userIdOf(linked) });
    expect(notices.map((n) => n.data)).toEqual([
      { kind: "handoff_kept_as", key, keptAs: `${key}.guest-2` },
    ]);
  });

  it("shortens a long key so the re-keyed one stays within 128 characters", () => {
    const long = `a${"b".repeat(127)}`;
    expect(guestKey(long, 1)).toHaveLength(128);
    expect(guestKey(long, 1).endsWith("b.guest")).toBe(true);
    expect(guestKey(long, 12)).toBe(`${long.slice(0, 119)}.guest-12`);
    expect(guestKey("k", 2)).toBe("k.guest-2");
  });
});
