// A thread's agent: set by PATCH /api/threads/{id} or by the chat request that creates the
// thread, never to an agent the user lacks; an agent that threads use is not deleted.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { chatMessage, newThread, signedIn, writer } from "../support/profiles";
import { dbHashes } from "../support/route-call";

beforeAll(() => {
  process.env.BATON_LOCAL_DELAY_MS = "0";
});

describe("a thread's agent", () => {
  it("a thread cannot be moved onto another user's agent", async () => {
    const owner = await signedIn();
    const stranger = await signedIn();
    await owner.api.create({ ...writer, id: "owners-agent" });
    const threadId = await newThread(stranger.userId);
    const res = await stranger.api.patchThread(threadId, { profile: "owners-agent" });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.error.fields)).toEqual(["profile"]);
    expect((await stranger.api.thread(threadId)).body.thread.profile).toBe("default");
  });

  it("PATCH /api/threads/{id} moves the thread onto an agent and back", async () => {
    const { api, userId } = await signedIn();
    await api.create(writer);
    const threadId = await newThread(userId);
    expect((await api.thread(threadId)).body.thread.profile).toBe("default");

    const moved = await api.patchThread(threadId, { profile: "writer" });
    expect(moved.status).toBe(200);
    expect(moved.body.thread).toMatchObject({ id: threadId, title: "t", profile: "writer" });
    expect((await api.thread(threadId)).body.thread.profile).toBe("writer");

    const both = await api.patchThread(threadId, { title: "Renamed", profile: "default" });
    expect(both.body.thread).toMatchObject({ title: "Renamed", profile: "default" });
    const titleOnly = await api.patchThread(threadId, { title: "Again" });
    expect(titleOnly.body.thread).toMatchObject({ title: "Again", profile: "default" });
  });

  it("an unknown or malformed agent is a 400 on `profile` that changes nothing", async () => {
    const { api, userId } = await signedIn();
    const threadId = await newThread(userId);
    for (const body of [
      { profile: "nobody" },
      { title: "Should not stick", profile: "nobody" },
      { profile: "Not A Slug" },
      { profile: 3 },
    ]) {
      const before = await dbHashes();
      const res = await api.patchThread(threadId, body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("bad_request:body");
      expect(Object.keys(res.body.error.fields)).toEqual(["profile"]);
      expect(await dbHashes()).toEqual(before);
    }
    expect((await api.thread(threadId)).body.thread).toMatchObject({
      title: "t",
      profile: "default",
    });
    expect((await api.patchThread(threadId, {})).status).toBe(400);
  });

  it("another user's thread is a 404 even with a valid agent", async () => {
    const owner = await signedIn();
    const stranger = await signedIn();
    await stranger.api.create(writer);
    const threadId = await newThread(owner.userId);
    const res = await stranger.api.patchThread(threadId, { profile: "writer" });
    expect(res.status).toBe(404);
    expect((await owner.api.thread(threadId)).body.thread.profile).toBe("default");
  });

  it("a chat request that creates a thread starts it with the agent it names", async () => {
    const { api } = await signedIn();
    await api.create(writer);
    const threadId = randomUUID();
    const sent = await api.chat(chatMessage(threadId, { profile: "writer" }));
    expect(sent.status).toBe(200);
    const view = await api.thread(threadId);
    expect(view.body.thread.profile).toBe("writer");
    expect(view.body.sessions.map((s: { profile: string }) => s.profile)).toEqual(["writer"]);

    // Once the thread exists, the request's profile does not move it: PATCH does.
    const again = await api.chat(chatMessage(threadId, { profile: "default" }));
    expect(again.status).toBe(200);
    expect((await api.thread(threadId)).body.thread.profile).toBe("writer");
  });

  it("a chat request without a profile starts the thread with the built-in agent", async () => {
    const { api } = await signedIn();
    const threadId = randomUUID();
    expect((await api.chat(chatMessage(threadId))).status).toBe(200);
    expect((await api.thread(threadId)).body.thread.profile).toBe("default");
  });

  it("an unknown agent in the chat request is a 400 on `profile`, and no thread is stored", async () => {
    const owner = await signedIn();
    const { api } = await signedIn();
    await owner.api.create({ ...writer, id: "not-yours" });
    for (const profile of ["nobody", "not-yours", "Bad Slug"]) {
      const threadId = randomUUID();
      const before = await dbHashes();
      const sent = await api.chat(chatMessage(threadId, { profile }));
      expect(sent.status).toBe(400);
      const error = JSON.parse(sent.text).error;
      expect(error.code).toBe("bad_request:body");
      expect(Object.keys(error.fields)).toEqual(["profile"]);
      expect(await dbHashes()).toEqual(before);
      expect((await api.thread(threadId)).status).toBe(404);
    }
  });

  it("an agent that threads use is not deleted: 409 with the count, until they move", async () => {
    const { api, userId } = await signedIn();
    await api.create(writer);
    const first = await newThread(userId);
    await api.patchThread(first, { profile: "writer" });
    const second = randomUUID();
    expect((await api.chat(chatMessage(second, { profile: "writer" }))).status).toBe(200);

    const before = await dbHashes();
    const two = await api.remove("writer");
    expect(two.status).toBe(409);
    expect(two.body.error).toMatchObject({
      code: "conflict:profile_in_use",
      message: "2 threads use this agent; move them to another agent first.",
    });
    expect(await dbHashes()).toEqual(before);

    await api.patchThread(first, { profile: "default" });
    const one = await api.remove("writer");
    expect(one.status).toBe(409);
    expect(one.body.error.message).toBe(
      "1 thread uses this agent; move it to another agent first.",
    );

    await api.patchThread(second, { profile: "default" });
    expect((await api.remove("writer")).status).toBe(204);
    expect((await api.get("writer")).status).toBe(404);
  });

  it("a thread moved onto an agent while it is deleted is either counted or refused", async () => {
    const { api, userId } = await signedIn();
    for (let round = 0; round < 8; round++) {
      const slug = `racer-${round}`;
      await api.create({ ...writer, id: slug });
      const threadId = await newThread(userId);
      const [moved, deleted] = await Promise.all([
        api.patchThread(threadId, { profile: slug }),
        api.remove(slug),
      ]);
      const outcome = [moved.status, deleted.status];
      expect([
        [200, 409],
        [400, 204],
      ]).toContainEqual(outcome);
      const thread = (await api.thread(threadId)).body.thread;
      const exists = (await api.get(slug)).status === 200;
      // Never a thread left on an agent that is gone.
      expect(thread.profile === slug ? exists : true).toBe(true);
    }
  });

  it("another user's threads on a same-named agent do not block deleting yours", async () => {
    const ada = await signedIn();
    const bob = await signedIn();
    await ada.api.create(writer);
    await bob.api.create(writer);
    const bobsThread = await newThread(bob.userId);
    await bob.api.patchThread(bobsThread, { profile: "writer" });
    expect((await ada.api.remove("writer")).status).toBe(204);
    expect((await bob.api.remove("writer")).status).toBe(409);
  });
});
