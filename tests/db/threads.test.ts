import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  appendMessage,
  countThreadMessages,
  listSessionMessages,
  listThreadMessages,
} from "@/db/queries/messages";
import { getCurrentSession, listSessions } from "@/db/queries/sessions";
import {
  deleteThread,
  ensureThread,
  getThread,
  listThreads,
  transferThreads,
  updateThread,
} from "@/db/queries/threads";
import { createTestUser } from "../support/users";

const text = (t: string) => [{ type: "text", text: t }];

async function newThread(userId: string, title = "t") {
  const threadId = randomUUID();
  const result = await ensureThread({ userId, threadId, model: "baton/local", title });
  if (!result) throw new Error("thread not created");
  return threadId;
}

describe("threads and messages", () => {
  it("starts every thread with session 1 and numbers messages monotonically", async () => {
    const userId = await createTestUser();
    const threadId = await newThread(userId);
    const session = await getCurrentSession({ userId, threadId });
    expect(session?.number).toBe(1);
    const seqs: number[] = [];
    for (const word of ["one", "two", "three"]) {
      const row = await appendMessage({
        userId,
        threadId,
        sessionId: session?.id ?? "",
        message: { id: randomUUID(), role: "user", parts: text(word), status: "complete" },
      });
      seqs.push(row.seq);
    }
    expect(seqs).toEqual([1, 2, 3]);
    const stored = await listSessionMessages({ userId, threadId, sessionId: session?.id ?? "" });
    expect(stored.map((m) => m.parts)).toEqual([text("one"), text("two"), text("three")]);
    const sessions = await listSessions({ userId, threadId });
    expect(sessions).toMatchObject([{ number: 1, firstSeq: 1, messageCount: 3 }]);
  });

  it("gives concurrent inserts distinct, gap-free sequence numbers", async () => {
    const userId = await createTestUser();
    const threadId = await newThread(userId);
    const session = await getCurrentSession({ userId, threadId });
    const rows = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        appendMessage({
          userId,
          threadId,
          sessionId: session?.id ?? "",
          message: { id: `m${i}`, role: "user", parts: text(`m${i}`), status: "complete" },
        }),
      ),
    );
    expect(rows.map((r) => r.seq).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
  });

  it("never shows one user's thread or messages to another", async () => {
    const owner = await createTestUser("owner");
    const other = await createTestUser("other");
    const threadId = await newThread(owner);
    const session = await getCurrentSession({ userId: owner, threadId });
    await appendMessage({
      userId: owner,
      threadId,
      sessionId: session?.id ?? "",
      message: { id: "a", role: "user", parts: text("private"), status: "complete" },
    });
    expect(await getThread({ userId: other, threadId })).toBeNull();
    expect(await getCurrentSession({ userId: other, threadId })).toBeNull();
    expect((await listThreadMessages({ userId: other, threadId, limit: 10 })).messages).toEqual([]);
    expect(await countThreadMessages({ userId: other, threadId })).toBe(0);
    expect((await listThreads({ userId: other, limit: 10 })).threads).toEqual([]);
    expect(await updateThread({ userId: other, threadId, title: "mine now" })).toBeNull();
    expect(await deleteThread({ userId: other, threadId })).toBe(false);
    // Another user cannot claim an existing id either.
    expect(
      await ensureThread({ userId: other, threadId, model: "baton/local", title: "x" }),
    ).toBeNull();
    await expect(
      appendMessage({
        userId: other,
        threadId,
        sessionId: session?.id ?? "",
        message: { id: "b", role: "user", parts: text("intrusion"), status: "complete" },
      }),
    ).rejects.toMatchObject({ code: "not_found:thread" });
    expect(await countThreadMessages({ userId: owner, threadId })).toBe(1);
  });

  it("pages threads newest first with a cursor", async () => {
    const userId = await createTestUser();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const id = await newThread(userId, `thread ${i}`);
      await updateThread({ userId, threadId: id, title: `thread ${i}` });
      ids.push(id);
    }
    const first = await listThreads({ userId, limit: 2 });
    expect(first.threads.map((t) => t.title)).toEqual(["thread 4", "thread 3"]);
    const second = await listThreads({ userId, limit: 2, cursor: first.nextCursor ?? undefined });
    expect(second.threads.map((t) => t.title)).toEqual(["thread 2", "thread 1"]);
    const third = await listThreads({ userId, limit: 2, cursor: second.nextCursor ?? undefined });
    expect(third.threads.map((t) => t.title)).toEqual(["thread 0"]);
    expect(third.nextCursor).toBeNull();
  });

  it("finds threads by a word of their title, taking LIKE wildcards literally", async () => {
    const userId = await createTestUser();
    const other = await createTestUser();
    await newThread(userId, "Harbour ferry timetable");
    await newThread(userId, "Quarterly budget");
    await newThread(userId, "100% done_list");
    await newThread(other, "Ferry for someone else");
    const titles = async (titleContains: string) =>
      (await listThreads({ userId, limit: 10, titleContains })).threads.map((t) => t.title);
    expect(await titles("ferry")).toEqual(["Harbour ferry timetable"]);
    expect(await titles("BUDGET")).toEqual(["Quarterly budget"]);
    expect(await titles("%")).toEqual(["100% done_list"]);
    expect(await titles("e_l")).toEqual(["100% done_list"]);
    expect(await titles("nothing like it")).toEqual([]);
  });

  it("keeps a renamed thread where it was in the list (ordered by activity)", async () => {
    const userId = await createTestUser();
    const older = await newThread(userId, "older");
    await newThread(userId, "newer");
    await updateThread({ userId, threadId: older, title: "older, renamed" });
    const page = await listThreads({ userId, limit: 10 });
    expect(page.threads.map((t) => t.title)).toEqual(["newer", "older, renamed"]);
  });

  it("pages messages newest first and returns each page oldest first", async () => {
    const userId = await createTestUser();
    const threadId = await newThread(userId);
    const session = await getCurrentSession({ userId, threadId });
    for (let i = 1; i <= 5; i++) {
      await appendMessage({
        userId,
        threadId,
        sessionId: session?.id ?? "",
        message: { id: `m${i}`, role: "user", parts: text(`m${i}`), status: "complete" },
      });
    }
    const newest = await listThreadMessages({ userId, threadId, limit: 2 });
    expect(newest.messages.map((m) => m.id)).toEqual(["m4", "m5"]);
    expect(newest.hasMore).toBe(true);
    const older = await listThreadMessages({ userId, threadId, limit: 10, beforeSeq: 4 });
    expect(older.messages.map((m) => m.id)).toEqual(["m1", "m2", "m3"]);
    expect(older.hasMore).toBe(false);
  });

  it("moves a guest's threads to the account it links to", async () => {
    const guest = await createTestUser("guest");
    const account = await createTestUser("account");
    const threadId = await newThread(guest);
    expect(await transferThreads({ fromUserId: guest, toUserId: account })).toBe(1);
    expect(await getThread({ userId: account, threadId })).not.toBeNull();
    expect(await getThread({ userId: guest, threadId })).toBeNull();
  });
});
