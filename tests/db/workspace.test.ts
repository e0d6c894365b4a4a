import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import {
  countFiles,
  listFileVersions,
  listTouchedPaths,
  readFileVersion,
} from "@/db/queries/workspace";
import { createToolThread } from "../support/workspace";

describe("workspace tools", () => {
  it("writes, reads with line numbers, lists and counts files", async () => {
    const t = await createToolThread();
    expect(await t.call("write_file", { path: "./notes//a.md", content: "one\ntwo\n" })).toEqual({
      ok: true,
      path: "notes/a.md",
      version: 1,
      bytes: 8,
      created: true,
    });
    expect(await t.call("read_file", { path: "notes/a.md" })).toMatchObject({
      ok: true,
      content: "1: one\n2: two",
      totalLines: 2,
    });
    expect(await t.call("list_files", {})).toEqual({
      ok: true,
      files: [{ path: "notes/a.md", bytes: 8 }],
      count: 1,
    });
    expect(await countFiles(getDb(), t)).toBe(1);
    expect(await listTouchedPaths(getDb(), t)).toEqual(["notes/a.md"]);
  });

  it("keeps a deleted file in the version history", async () => {
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
    const versions = await listFileVersions(getDb(), { ...t, path: "a.md" });
    expect(versions.map((v) => v.op)).toEqual(["delete", "edit", "write"]);
    const v2 = await readFileVersion(getDb(), { ...t, path: "a.md", version: 2 });
    expect(v2?.content).toBe("second");
  });
});
