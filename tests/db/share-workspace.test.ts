// A shared thread's workspace and tool calls, read through the share link's own routes: files,
// a file's versions and download, the plan, and the tool parts of its messages — read-only, with
// no id of the thread's (thread, session, run, message, tool call) and secrets masked.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { GET as getFile } from "@/app/share/[token]/files/[...path]/route";
import { GET as getFiles } from "@/app/share/[token]/files/route";
import { GET as getPlan } from "@/app/share/[token]/plan/route";
import { appendMessage } from "@/db/queries/messages";
import { createShareLink, loadSharedThreadView, revokeShareLink } from "@/lib/chat/share";
import type { FileResponse, FilesResponse, PlanResponse } from "@/lib/workspace/api-schemas";
import { createToolThread } from "../support/workspace";

const SECRET = "sk-proj-Zq7Xw3Vb9Nm4Lk2Jh8Gf6Ds5Ap1";

async function call<T>(
  handler: (request: Request, context: { params: Promise<unknown> }) => Promise<Response>,
  path: string,
  params: Record<string, unknown>,
): Promise<{ status: number; text: string; body: T; headers: Headers }> {
  const response = await handler(new Request(`http://baton.test${path}`), {
    params: Promise.resolve(params),
  });
  const text = await response.text();
  let body: T;
  try {
    body = JSON.parse(text) as T;
  } catch {
    body = text as T;
  }
  return { status: response.status, text, body, headers: response.headers };
}

async function sharedWorkspace() {
  const t = await createToolThread();
  await t.call("write_file", { path: "work/p1.md", content: `key: ${SECRET}\nline two\n` });
  await t.call("write_file", { path: "notes.md", content: "hello" });
  await t.call("write_file", { path: "gone.md", content: "soon deleted" });
  await t.call("delete_file", { path: "gone.md" });
  await t.call("update_plan", {
    items: [
      { id: "p1", task: `Rotate ${SECRET}`, status: "done" },
      { id: "p2", task: "Write the notes", status: "pending" },
    ],
  });
  const { token } = await createShareLink({ userId: t.userId, threadId: t.threadId });
  return { ...t, token, ids: [t.threadId, t.sessionId, t.userId] };
}

const leaked = (text: string, ids: string[]) => ids.filter((id) => text.includes(id));

describe("a shared thread's workspace", () => {
  it("lists the files and reads a file with its versions, without ids or secrets", async () => {
    const w = await sharedWorkspace();
    const files = await call<FilesResponse>(getFiles, `/share/${w.token}/files`, {
      token: w.token,
    });
    expect(files.status).toBe(200);
    expect(files.body.files.map((f) => f.path)).toEqual(["notes.md", "work/p1.md"]);
    expect(leaked(files.text, w.ids)).toEqual([]);

    const file = await call<FileResponse>(getFile, `/share/${w.token}/files/work/p1.md`, {
      token: w.token,
      path: ["work", "p1.md"],
    });
    expect(file.status).toBe(200);
    expect(file.body.file.content).toContain("line two");
    expect(file.text).not.toContain(SECRET);
    expect(file.body.versions).toEqual([
      expect.objectContaining({ version: 1, op: "write", sessionId: null, runId: null }),
    ]);
    expect(leaked(file.text, w.ids)).toEqual([]);

    const deleted = await call<FileResponse>(getFile, `/share/${w.token}/files/gone.md?version=1`, {
      token: w.token,
      path: ["gone.md"],
    });
    expect(deleted.body.file).toMatchObject({
      version: 1,
      latestVersion: 2,
      content: "soon deleted",
    });
  });

  it("downloads a file as a text/plain attachment with nosniff, masked", async () => {
    const w = await sharedWorkspace();
    const download = await call<string>(getFile, `/share/${w.token}/files/work/p1.md?download=1`, {
      token: w.token,
      path: ["work", "p1.md"],
    });
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(download.headers.get("content-disposition")).toContain("attachment");
    expect(download.headers.get("x-content-type-options")).toBe("nosniff");
    expect(download.text).toContain("line two");
    expect(download.text).not.toContain(SECRET);
  });

  it("reads the plan, masked", async () => {
    const w = await sharedWorkspace();
    const plan = await call<PlanResponse>(getPlan, `/share/${w.token}/plan`, { token: w.token });
    expect(plan.status).toBe(200);
    expect(plan.body.items.map((i) => [i.id, i.status])).toEqual([
      ["p1", "done"],
      ["p2", "pending"],
    ]);
    expect(plan.text).not.toContain(SECRET);
  });

  it("answers 404 for a revoked or malformed link and a path that names no file", async () => {
    const w = await sharedWorkspace();
    const traversal = await call(getFile, `/share/${w.token}/files/../x`, {
      token: w.token,
      path: ["..", "x"],
    });
    expect(traversal.status).toBe(404);
    const missing = await call(getFile, `/share/${w.token}/files/none.md`, {
      token: w.token,
      path: ["none.md"],
    });
    expect(missing.status).toBe(404);
    await revokeShareLink({ userId: w.userId, threadId: w.threadId });
    for (const token of [w.token, "not a token"]) {
      expect((await call(getFiles, `/share/x/files`, { token })).status).toBe(404);
      expect((await call(getPlan, `/share/x/plan`, { token })).status).toBe(404);
      const one = await call(getFile, `/share/x/files/notes.md`, { token, path: ["notes.md"] });
      expect(one.status).toBe(404);
    }
  });
});

describe("a shared thread's tool calls", () => {
  it("shows each call's input, result and approval outcome under stand-in ids, masked", async () => {
    const w = await sharedWorkspace();
    const messageId = randomUUID();
    await appendMessage({
      userId: w.userId,
      threadId: w.threadId,
      sessionId: w.sessionId,
      message: {
        id: messageId,
        role: "assistant",
        status: "complete",
        parts: [
          { type: "step-start" },
          {
            type: "tool-write_file",
            toolCallId: "call_local_abc",
            state: "output-available",
            input: { path: "work/p1.md", content: `key: ${SECRET}` },
            output: { ok: true, path: "work/p1.md", version: 1, bytes: 10, created: true },
            callProviderMetadata: { offline: { thread: w.threadId } },
          },
          {
            type: "tool-delete_file",
            toolCallId: "call_local_def",
            state: "output-denied",
            input: { path: "work/p1.md" },
            approval: { id: "approval-1", approved: false, reason: "Not run." },
          },
          { type: "text", text: "The file was not deleted." },
        ],
      },
    });
    const view = await loadSharedThreadView({ token: w.token });
    const shared = view?.messages.find((m) => m.role === "assistant");
    const text = JSON.stringify(shared);
    expect(shared?.parts.map((p) => p.type)).toEqual([
      "step-start",
      "tool-write_file",
      "tool-delete_file",
      "text",
    ]);
    expect(shared?.parts[1]).toMatchObject({
      state: "output-available",
      input: { path: "work/p1.md" },
      output: { ok: true, version: 1 },
    });
    expect(shared?.parts[2]).toMatchObject({
      state: "output-denied",
      approval: { approved: false, reason: "Not run." },
    });
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain("callProviderMetadata");
    expect(leaked(text, [...w.ids, messageId, "call_local_abc", "approval-1"])).toEqual([]);
  });
});
