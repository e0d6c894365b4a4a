import { describe, expect, it } from "vitest";
import { MAX_FILE_BYTES, SPILL_PREVIEW_BYTES, utf8Bytes } from "@/core/workspace/limits";
import { splitLines } from "@/core/workspace/text";
import {
  planSpill,
  SPILL_LINE_CHARS,
  serializeResult,
  spillPath,
  wrapLongLines,
} from "./spill-format";

describe("planSpill", () => {
  it("stores the whole result and shows the first 2 KiB with the path", () => {
    const text = Array.from({ length: 5000 }, (_, i) => `row ${i}`).join("\n");
    const plan = planSpill("call_abc", text);
    expect(plan.path).toBe(".baton/results/call_abc.txt");
    expect(plan.content).toBe(text);
    expect(plan.totalLines).toBe(5000);
    expect(plan.bytes).toBe(utf8Bytes(text));
    expect(utf8Bytes(plan.preview)).toBeLessThanOrEqual(SPILL_PREVIEW_BYTES);
    expect(text.startsWith(plan.preview)).toBe(true);
    expect(plan.note).toContain(".baton/results/call_abc.txt");
    expect(plan.note).toContain("read_file");
  });

  it("cuts a result above the file limit and says so", () => {
    const text = "x".repeat(MAX_FILE_BYTES * 2);
    const plan = planSpill("c1", text);
    expect(utf8Bytes(plan.content)).toBeLessThanOrEqual(MAX_FILE_BYTES);
    expect(plan.bytes).toBe(MAX_FILE_BYTES * 2);
    expect(plan.note).toContain(`cut at ${MAX_FILE_BYTES} bytes`);
  });

  it("wraps long lines so a line range stays small", () => {
    const plan = planSpill("c2", "y".repeat(SPILL_LINE_CHARS * 3 + 5));
    const lines = splitLines(plan.content);
    expect(lines.map((l) => l.length)).toEqual([
      SPILL_LINE_CHARS,
      SPILL_LINE_CHARS,
      SPILL_LINE_CHARS,
      5,
    ]);
    // A surrogate pair at the boundary stays whole.
    const emoji = `${"a".repeat(SPILL_LINE_CHARS - 1)}😀b`;
    expect(wrapLongLines(emoji).split("\n")).toEqual(["a".repeat(SPILL_LINE_CHARS - 1), "😀b"]);
  });

  it("reduces a call id to path-safe characters", () => {
    expect(spillPath("toolu_01/../x y")).toBe(".baton/results/toolu_01____x_y.txt");
    expect(spillPath("")).toBe(".baton/results/result.txt");
    expect(serializeResult({ a: 1 })).toBe('{\n  "a": 1\n}');
    expect(serializeResult("plain")).toBe("plain");
  });
});
