import { randomUUID } from "node:crypto";
import { tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  MAX_FILE_BYTES,
  MAX_FILES_PER_THREAD,
  SPILL_THRESHOLD_BYTES,
  utf8Bytes,
} from "@/core/workspace/limits";
import { getDb } from "@/db/client";
import { getPlan } from "@/db/queries/plans";
import {
  countFiles,
  listFiles,
  listFileVersions,
  listTouchedPaths,
  readFileVersion,
} from "@/db/queries/workspace";
import { sessions, workspaceFiles } from "@/db/schema";
import { createBuiltinTools, withSpill } from "@/lib/agents/tools";
import { currentActor } from "@/lib/auth/server";
import { guestHeaders } from "../support/auth";
import { createToolThread } from "../support/workspace";

const db = () => getDb();

describe("workspace tools", () => {
  it("writes, reads with line numbers, lists and counts files", async () => {
    const touched: string[] = [];
    const t = await createToolThread({
      onFileTouched: (path, op) => touched.push(`${op} ${path}`),
    });
    expect(await t.call("write_file", { path: "./notes//a.md", content: "one\ntwo\n" })).toEqual({
      ok: true,
      path: "notes/a.md",
      version: 1,
      bytes: 8,
      created: true,
    });
    expect(await t.call("read_file", { path: "notes/a.md" })).toEqual({
      ok: true,
      path: "notes/a.md",
      version: 1,
      totalLines: 2,
      bytes: 8,
      startLine: 1,
      endLine: 2,
      content: "1: one\n2: two",
    });
    await t.call("write_file", { path: "work/p1.md", content: "p1" });
    expect(await t.call("list_files", {})).toEqual({
      ok: true,
      files: [
        { path: "notes/a.md", bytes: 8 },
        { path: "work/p1.md", bytes: 2 },
      ],
      count: 2,
    });
    expect(await t.call("list_files", { prefix: "work/" })).toMatchObject({
      files: [{ path: "work/p1.md" }],
    });
    expect(await countFiles(db(), t)).toBe(2);
    expect(touched).toEqual(["write notes/a.md", "write work/p1.md"]);
  });

  it("answers bad paths and oversize content with errors the model reads, storing nothing", async () => {
    const t = await createToolThread();
    const attempts = [
      { path: "../outside.md", content: "x", error: '".."' },
      { path: "notes/../../etc/passwd", content: "x", error: '".."' },
      { path: "/etc/passwd", content: "x", error: "absolute" },
      { path: "C:\\temp\\x.md", content: "x", error: "backslash" },
      { path: "a\u0000b", content: "x", error: "control character" },
      { path: ".baton/results/forged.txt", content: "x", error: "reserved" },
      { path: `${"d/".repeat(130)}f.md`, content: "x", error: "at most 256" },
      { path: "big.md", content: "a".repeat(MAX_FILE_BYTES + 1), error: "at most 262144 bytes" },
    ];
    for (const { error, ...input } of attempts) {
      const result = await t.call("write_file", input);
      expect(result.ok, input.path).toBe(false);
      expect(result.error).toContain(error);
    }
    expect(await t.call("read_file", { path: "../x" })).toMatchObject({ ok: false });
    expect(await t.call("delete_file", { path: "/x" })).toMatchObject({ ok: false });
    expect(await t.call("list_files", { prefix: "../" })).toMatchObject({ ok: false });
    expect(await listFiles(db(), { ...t, kind: "all" })).toEqual([]);
    // Exactly the limit is fine.
    const full = await t.call("write_file", {
      path: "full.md",
      content: "é".repeat(MAX_FILE_BYTES / 2),
    });
    expect(full).toMatchObject({ ok: true, bytes: MAX_FILE_BYTES });
    expect(await t.call("edit_file", { path: "full.md", old: "éé", new: "ééé" })).toMatchObject({
      ok: false,
      error: expect.stringContaining("found"),
    });
  });

  it("stops at the file limit; tool results and overwrites do not count", async () => {
    const t = await createToolThread();
    const now = new Date();
    await db()
      .insert(workspaceFiles)
      .values(
        Array.from({ length: MAX_FILES_PER_THREAD - 1 }, (_, i) => ({
          threadId: t.threadId,
          path: `bulk/${String(i).padStart(4, "0")}-${"n".repeat(40)}.md`,
          content: "x",
          size: 1,
          version: 1,
          createdAt: now,
          updatedAt: now,
        })),
      );
    expect(await t.call("write_file", { path: "last.md", content: "1000th" })).toMatchObject({
      ok: true,
    });
    const refused = await t.call("write_file", { path: "one-too-many.md", content: "x" });
    expect(refused).toEqual({
      ok: false,
      error: `The workspace already holds ${MAX_FILES_PER_THREAD} files, the limit; delete or reuse one before creating "one-too-many.md".`,
    });
    expect(await t.call("write_file", { path: "last.md", content: "rewritten" })).toMatchObject({
      ok: true,
      version: 2,
    });
    expect(await countFiles(db(), t)).toBe(MAX_FILES_PER_THREAD);

    // A 1,000-file listing is over the spill threshold: it comes back spilled, and the spill
    // file is written although the workspace is full.
    const listing = await t.call("list_files", {}, "call_listing");
    expect(listing).toMatchObject({ spilled: true, path: ".baton/results/call_listing.txt" });
    expect(await countFiles(db(), t)).toBe(MAX_FILES_PER_THREAD);

    expect(await t.call("delete_file", { path: "last.md" })).toMatchObject({ ok: true });
    expect(await t.call("write_file", { path: "one-too-many.md", content: "x" })).toMatchObject({
      ok: true,
    });
  });

  it("keeps the limit and the version numbers under concurrent writes", async () => {
    const t = await createToolThread();
    const now = new Date();
    await db()
      .insert(workspaceFiles)
      .values(
        Array.from({ length: MAX_FILES_PER_THREAD - 2 }, (_, i) => ({
          threadId: t.threadId,
          path: `bulk/${i}.md`,
          content: "x",
          size: 1,
          version: 1,
          createdAt: now,
          updatedAt: now,
        })),
      );
    const racing = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        t.call("write_file", { path: `new-${i}.md`, content: "x" }),
      ),
    );
    expect(racing.filter((r) => r.ok).length).toBe(2);
    expect(await countFiles(db(), t)).toBe(MAX_FILES_PER_THREAD);

    const same = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        t.call("write_file", { path: "bulk/0.md", content: `take ${i}` }),
      ),
    );
    expect(same.map((r) => r.version).sort()).toEqual([2, 3, 4, 5, 6]);
  });

  it("edits only on exactly one match, naming the count otherwise", async () => {
    const t = await createToolThread();
    await t.call("write_file", { path: "a.md", content: "cat dog cat" });
    expect(await t.call("edit_file", { path: "a.md", old: "cat", new: "cow" })).toEqual({
      ok: false,
      error: "`old` was found 2 times; it must match exactly once — include more surrounding text.",
    });
    expect(await t.call("edit_file", { path: "a.md", old: "bird", new: "cow" })).toMatchObject({
      ok: false,
      error: expect.stringContaining("found 0 times"),
    });
    expect(await t.call("edit_file", { path: "a.md", old: "dog", new: "owl" })).toEqual({
      ok: true,
      path: "a.md",
      version: 2,
      bytes: 11,
    });
    expect(await t.call("read_file", { path: "a.md" })).toMatchObject({
      content: "1: cat owl cat",
    });
    expect(await t.call("edit_file", { path: "missing.md", old: "a", new: "b" })).toEqual({
      ok: false,
      error: '"missing.md" does not exist.',
    });
    expect((await listFileVersions(db(), { ...t, path: "a.md" })).map((v) => v.op)).toEqual([
      "edit",
      "write",
    ]);
  });

  it("keeps a deleted file in the version history and continues its numbering", async () => {
    const t = await createToolThread();
    await t.call("write_file", { path: "a.md", content: "first" });
    await t.call("edit_file", { path: "a.md", old: "first", new: "second" });
    expect(await t.call("delete_file", { path: "a.md" })).toEqual({
      ok: true,
      path: "a.md",
      deleted: true,
    });
    expect(await t.call("read_file", { path: "a.md" })).toEqual({
      ok: false,
      error: '"a.md" does not exist.',
    });
    expect(await t.call("delete_file", { path: "a.md" })).toMatchObject({ ok: false });
    expect(await t.call("list_files", {})).toMatchObject({ files: [], count: 0 });
    const versions = await listFileVersions(db(), { ...t, path: "a.md" });
    expect(versions.map((v) => [v.version, v.op])).toEqual([
      [3, "delete"],
      [2, "edit"],
      [1, "write"],
    ]);
    expect((await readFileVersion(db(), { ...t, path: "a.md", version: 2 }))?.content).toBe(
      "second",
    );
    expect((await readFileVersion(db(), { ...t, path: "a.md", version: 3 }))?.content).toBeNull();
    expect(await t.call("write_file", { path: "a.md", content: "again" })).toMatchObject({
      version: 4,
      created: true,
    });
  });

  it("asks approval for delete_file unless the session holds a grant", async () => {
    const granted = new Set<string>();
    const t = await createToolThread({ isGranted: async (tool) => granted.has(tool) });
    const needsApproval = t.tools.delete_file.needsApproval;
    if (typeof needsApproval !== "function") throw new Error("delete_file must decide per call");
    const options = { toolCallId: "c1", messages: [] };
    expect(await needsApproval({ path: "a.md" }, options)).toBe(true);
    granted.add("delete_file");
    expect(await needsApproval({ path: "a.md" }, options)).toBe(false);
    expect(t.tools.write_file.needsApproval).toBeUndefined();
  });

  it("lists the paths a session touched, without tool results or other sessions' work", async () => {
    const t = await createToolThread();
    await t.call("write_file", { path: "b.md", content: "b" });
    await t.call("write_file", { path: "a.md", content: "a" });
    await t.call("edit_file", { path: "a.md", old: "a", new: "A" });
    await t.call("write_file", { path: "gone.md", content: "g" });
    await t.call("delete_file", { path: "gone.md" });
    const [next] = await db()
      .insert(sessions)
      .values({ threadId: t.threadId, number: 2, model: "baton/local", trigger: "threshold" })
      .returning();
    if (!next) throw new Error("no session 2");
    const tools2 = createBuiltinTools({
      userId: t.userId,
      threadId: t.threadId,
      sessionId: next.id,
      runId: null,
      isGranted: async () => false,
    });
    await tools2.write_file.execute?.(
      { path: "c.md", content: "c" },
      { toolCallId: "x", messages: [] },
    );
    expect(await listTouchedPaths(db(), t)).toEqual(["a.md", "b.md", "gone.md"]);
    expect(await listTouchedPaths(db(), { ...t, sessionId: next.id })).toEqual(["c.md"]);
    const stranger = await createToolThread();
    expect(await listTouchedPaths(db(), { ...t, userId: stranger.userId })).toEqual([]);
  });
});

describe("plan", () => {
  it("replaces the thread's plan and rejects malformed items", async () => {
    const t = await createToolThread();
    const first = [
      { id: "p1", task: "Outline", status: "in_progress" as const },
      { id: "p2", task: "Draft", status: "pending" as const },
    ];
    expect(await t.call("update_plan", { items: first })).toEqual({
      ok: true,
      items: first,
      version: 1,
    });
    const second = [{ id: "p1", task: "Outline", status: "done" as const }];
    expect(await t.call("update_plan", { items: second })).toMatchObject({ version: 2 });
    expect((await getPlan(db(), t))?.items).toEqual(second);

    const badId = await t.call("update_plan", {
      items: [{ id: "t1", task: "x", status: "pending" }],
    });
    expect(badId).toMatchObject({ ok: false, error: expect.stringContaining("p1, p2") });
    const duplicate = await t.call("update_plan", {
      items: [
        { id: "p1", task: "x", status: "pending" },
        { id: "p1", task: "y", status: "pending" },
      ],
    });
    expect(duplicate).toMatchObject({ ok: false, error: expect.stringContaining("unique") });
    expect((await getPlan(db(), t))?.items).toEqual(second);
  });
});

describe("large results", () => {
  it("reads a 200 kB file as a preview with its path, then any later line range", async () => {
    const t = await createToolThread();
    const lines = Array.from(
      { length: 4000 },
      (_, i) => `line ${i + 1}: ${"lorem ipsum ".repeat(3)}`,
    );
    const content = `${lines.join("\n")}\n`;
    expect(utf8Bytes(content)).toBeGreaterThan(190_000);
    await t.call("write_file", { path: "big.txt", content });

    const preview = await t.call("read_file", { path: "big.txt" });
    expect(preview).toMatchObject({ ok: true, path: "big.txt", totalLines: 4000, startLine: 1 });
    expect(preview.hint).toContain("startLine");
    expect(utf8Bytes(JSON.stringify(preview))).toBeLessThan(4 * 1024);

    const range = await t.call("read_file", { path: "big.txt", startLine: 3001, endLine: 3003 });
    expect(range).toMatchObject({ ok: true, startLine: 3001, endLine: 3003 });
    expect(range.content).toBe([3001, 3002, 3003].map((n) => `${n}: ${lines[n - 1]}`).join("\n"));
    // A wide range is cut to the read budget, never spilled, and says where to go on.
    const wide = await t.call("read_file", { path: "big.txt", startLine: 1, endLine: 4000 });
    expect(wide.hint).toContain(`continue with startLine ${Number(wide.endLine) + 1}`);
    expect(utf8Bytes(JSON.stringify(wide))).toBeLessThan(SPILL_THRESHOLD_BYTES);
    expect(await listFiles(db(), { ...t, kind: "tool_result" })).toEqual([]);
  });

  it("spills a 200 kB tool result to .baton/results and reads it back by line range", async () => {
    const t = await createToolThread();
    const rows = Array.from({ length: 5000 }, (_, i) => `record ${i + 1} ${"data ".repeat(7)}`);
    const big = tool({
      description: "returns a lot",
      inputSchema: z.object({}),
      execute: async () => rows.join("\n"),
    });
    const wrapped = withSpill("fetch_records", big, {
      userId: t.userId,
      threadId: t.threadId,
      sessionId: t.sessionId,
      runId: null,
      isGranted: async () => false,
    });
    const result = (await wrapped.execute?.({}, { toolCallId: "call_big", messages: [] })) as
      | Record<string, unknown>
      | undefined;
    if (!result) throw new Error("no result");
    const path = ".baton/results/call_big.txt";
    expect(result).toMatchObject({ spilled: true, path, totalLines: 5000 });
    expect(String(result.preview).startsWith("record 1 data")).toBe(true);
    expect(utf8Bytes(String(result.preview))).toBeLessThanOrEqual(2048);
    expect(result.note).toContain("read_file");
    expect(utf8Bytes(JSON.stringify(result))).toBeLessThan(SPILL_THRESHOLD_BYTES);

    const later = await t.call("read_file", { path, startLine: 4000, endLine: 4001 });
    expect(later).toMatchObject({ ok: true, content: `4000: ${rows[3999]}\n4001: ${rows[4000]}` });
    const whole = await t.call("read_file", { path });
    expect(whole).toMatchObject({ ok: true, totalLines: 5000 });
    expect(whole.spilled).toBeUndefined();

    // Outside the file count, files_modified and the plain listing; listed under its folder.
    expect(await countFiles(db(), t)).toBe(0);
    expect(await listTouchedPaths(db(), t)).toEqual([]);
    expect(await t.call("list_files", {})).toMatchObject({ count: 0 });
    expect(await t.call("list_files", { prefix: ".baton/" })).toMatchObject({
      files: [{ path }],
    });
    // Small results pass through untouched.
    const small = withSpill(
      "small",
      tool({ inputSchema: z.object({}), execute: async () => ({ ok: true }) }),
      { ...t, runId: null, isGranted: async () => false },
    );
    expect(await small.execute?.({}, { toolCallId: "s", messages: [] })).toEqual({ ok: true });
  });
});

describe("files and plan API", () => {
  async function apiUser() {
    const headers = await guestHeaders();
    const actor = await currentActor(headers);
    if (!actor) throw new Error("no guest");
    return { headers, userId: actor.id };
  }

  async function get(headers: Headers, path: string, params: Record<string, string | string[]>) {
    const url = `http://localhost:3000${path}`;
    const request = new Request(url, { headers });
    const mod = path.includes("/plan")
      ? await import("@/app/api/threads/[id]/plan/route")
      : Array.isArray(params.path)
        ? await import("@/app/api/threads/[id]/files/[...path]/route")
        : await import("@/app/api/threads/[id]/files/route");
    return mod.GET(request, { params: Promise.resolve(params) });
  }

  it("serves the owner's files, versions and plan, and 404s everyone else", async () => {
    const owner = await apiUser();
    const t = await createToolThread({ userId: owner.userId });
    await t.call("write_file", { path: "site/index.html", content: "<script>alert(1)</script>" });
    await t.call("edit_file", { path: "site/index.html", old: "alert(1)", new: "alert(2)" });
    await t.call("update_plan", { items: [{ id: "p1", task: "Ship", status: "pending" }] });
    const id = t.threadId;

    const list = await get(owner.headers, `/api/threads/${id}/files`, { id });
    expect(list.status).toBe(200);
    expect(await list.json()).toMatchObject({
      files: [{ path: "site/index.html", bytes: 25, version: 2 }],
      toolResults: [],
    });

    const path = ["site", "index.html"];
    const file = await get(owner.headers, `/api/threads/${id}/files/site/index.html`, { id, path });
    expect(await file.json()).toMatchObject({
      file: {
        path: "site/index.html",
        version: 2,
        deleted: false,
        content: "<script>alert(2)</script>",
      },
      versions: [
        { version: 2, op: "edit" },
        { version: 1, op: "write" },
      ],
    });
    const v1 = await get(owner.headers, `/api/threads/${id}/files/site/index.html?version=1`, {
      id,
      path,
    });
    expect(await v1.json()).toMatchObject({
      file: { version: 1, latestVersion: 2, content: "<script>alert(1)</script>" },
    });

    const download = await get(
      owner.headers,
      `/api/threads/${id}/files/site/index.html?download=1`,
      { id, path },
    );
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(download.headers.get("x-content-type-options")).toBe("nosniff");
    expect(download.headers.get("content-disposition")).toMatch(
      /^attachment; filename="index.html"/,
    );
    expect(await download.text()).toBe("<script>alert(2)</script>");

    const plan = await get(owner.headers, `/api/threads/${id}/plan`, { id });
    expect(await plan.json()).toMatchObject({
      items: [{ id: "p1", task: "Ship", status: "pending" }],
      version: 1,
    });

    const stranger = await apiUser();
    const attempts: [string, Record<string, string | string[]>][] = [
      [`/api/threads/${id}/files`, { id }],
      [`/api/threads/${id}/files/site/index.html`, { id, path }],
      [`/api/threads/${id}/files/site/index.html?download=1`, { id, path }],
      [`/api/threads/${id}/plan`, { id }],
    ];
    for (const [url, params] of attempts) {
      const response = await get(stranger.headers, url, params);
      expect(response.status, url).toBe(404);
      expect(await response.text()).not.toContain("alert");
    }
    const malformed = await get(owner.headers, "/api/threads/not-a-uuid/files", {
      id: "not-a-uuid",
    });
    expect(malformed.status).toBe(404);
    const missing = await get(owner.headers, `/api/threads/${randomUUID()}/plan`, {
      id: randomUUID(),
    });
    expect(missing.status).toBe(404);
    const traversal = await get(owner.headers, `/api/threads/${id}/files/../x`, {
      id,
      path: ["..", "x"],
    });
    expect(traversal.status).toBe(404);
    const noFile = await get(owner.headers, `/api/threads/${id}/files/nope.md`, {
      id,
      path: ["nope.md"],
    });
    expect([noFile.status, (await noFile.json()).error.code]).toEqual([404, "not_found:file"]);
  });

  it("shows a deleted file's history and serves its earlier versions", async () => {
    const owner = await apiUser();
    const t = await createToolThread({ userId: owner.userId });
    await t.call("write_file", { path: "a.md", content: "kept" });
    await t.call("delete_file", { path: "a.md" });
    const id = t.threadId;
    const path = ["a.md"];
    const current = await get(owner.headers, `/api/threads/${id}/files/a.md`, { id, path });
    expect(await current.json()).toMatchObject({
      file: { version: 2, deleted: true, content: null },
      versions: [{ op: "delete" }, { op: "write" }],
    });
    const gone = await get(owner.headers, `/api/threads/${id}/files/a.md?download=1`, { id, path });
    expect(gone.status).toBe(404);
    const old = await get(owner.headers, `/api/threads/${id}/files/a.md?download=1&version=1`, {
      id,
      path,
    });
    expect(await old.text()).toBe("kept");
    const list = await get(owner.headers, `/api/threads/${id}/files`, { id });
    expect(await list.json()).toMatchObject({ files: [] });
  });
});
