import { describe, expect, it } from "vitest";
import { contentSizeError, MAX_FILE_BYTES, truncateUtf8, utf8Bytes } from "./limits";
import { countOccurrences, numberedWindow, replaceExactlyOnce, splitLines } from "./text";

describe("replaceExactlyOnce", () => {
  it("replaces a single match", () => {
    expect(replaceExactlyOnce("a b c", "b", "B")).toEqual({ ok: true, content: "a B c" });
  });

  it("names the count when the text matches zero or several times", () => {
    const none = replaceExactlyOnce("a b c", "x", "y");
    expect(none).toMatchObject({ ok: false });
    if (!none.ok) expect(none.error).toContain("found 0 times");
    const three = replaceExactlyOnce("ab ab ab", "ab", "x");
    if (three.ok) throw new Error("expected an error");
    expect(three.error).toContain("found 3 times");
    expect(replaceExactlyOnce("abc", "", "x")).toMatchObject({ ok: false });
  });

  it("counts non-overlapping occurrences", () => {
    expect(countOccurrences("aaaa", "aa")).toBe(2);
    expect(countOccurrences("abc", "d")).toBe(0);
  });
});

describe("size limits", () => {
  it("measures UTF-8 bytes, not characters", () => {
    expect(utf8Bytes("é")).toBe(2);
    expect(utf8Bytes("😀")).toBe(4);
    expect(contentSizeError("a".repeat(MAX_FILE_BYTES))).toBeNull();
    expect(contentSizeError("a".repeat(MAX_FILE_BYTES + 1))).toContain(
      `${MAX_FILE_BYTES + 1} bytes`,
    );
    // 256 KiB of two-byte characters is half as many characters.
    expect(contentSizeError("é".repeat(MAX_FILE_BYTES / 2 + 1))).not.toBeNull();
  });

  it("truncates without splitting a character", () => {
    expect(truncateUtf8("aé😀", 4)).toBe("aé");
    expect(truncateUtf8("aé😀", 7)).toBe("aé😀");
  });
});

describe("numberedWindow", () => {
  const lines = splitLines("one\ntwo\nthree\n");

  it("numbers lines and ignores a final newline", () => {
    expect(lines).toEqual(["one", "two", "three"]);
    expect(numberedWindow(lines, 2, 3)).toEqual({
      numbered: "2: two\n3: three",
      startLine: 2,
      endLine: 3,
      truncated: false,
    });
  });

  it("stops at whole lines within the byte budget and says so", () => {
    const many = Array.from({ length: 100 }, (_, i) => `line ${i + 1}`);
    const w = numberedWindow(many, 1, 100, 50);
    expect(w.truncated).toBe(true);
    expect(utf8Bytes(w.numbered)).toBeLessThanOrEqual(50);
    expect(w.numbered.split("\n").at(-1)).toBe(`${w.endLine}: line ${w.endLine}`);
  });

  it("cuts a single line longer than the budget", () => {
    const w = numberedWindow(["x".repeat(10_000), "next"], 1, 2, 200);
    expect(utf8Bytes(w.numbered)).toBeLessThanOrEqual(200);
    expect(w.numbered).toContain("line cut");
    expect(w).toMatchObject({ endLine: 1, truncated: true });
  });
});
