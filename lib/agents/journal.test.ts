// What the run journal stores of an event's payload: redacted, capped per string, array and
// depth, and at most 8 KiB of JSON with the largest fields dropped first.
import { describe, expect, it } from "vitest";
import { SECRET_CASES } from "@/tests/support/secret-corpus";
import { cappedPayload, PAYLOAD_LIMITS } from "./journal-payload";

const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;

describe("cappedPayload", () => {
  it("keeps a small ordinary payload as it is, without a truncated flag", () => {
    const payload = {
      toolName: "write_file",
      args: { path: "notes/key-decisions.md", content: "# Decisions\n\n- use Postgres" },
      inputTokens: 1234,
      outputTokens: 56,
      ok: true,
      reason: null,
    };
    expect(cappedPayload(payload)).toEqual(payload);
  });

  it("masks a secret in any string, nested or not, and in keys", () => {
    const [first, second] = SECRET_CASES;
    if (!first || !second) throw new Error("the secret corpus is empty");
    const stored = cappedPayload({
      output: first.text,
      args: { lines: ["ok", second.text] },
      [second.text]: 1,
    });
    const json = JSON.stringify(stored);
    expect(json).not.toContain(first.secret);
    expect(json).not.toContain(second.secret);
    expect(json).toContain(`[REDACTED:${first.kind}]`);
  });

  it("masks every secret of the corpus as a tool result would carry it", () => {
    for (const c of SECRET_CASES) {
      const json = JSON.stringify(cappedPayload({ result: { output: c.text } }));
      expect(json, c.name).not.toContain(c.secret);
    }
  });

  it("masks a bare value under a key that names a secret", () => {
    const stored = cappedPayload({ env: { DB_PASSWORD: "hunter2Xy!", USER: "ada" } });
    expect(stored).toEqual({ env: { DB_PASSWORD: "[REDACTED:password]", USER: "ada" } });
  });

  it("cuts a long string at 2,000 characters and says how many were left out", () => {
    const stored = cappedPayload({ output: "a".repeat(5_000) });
    expect(stored.output).toBe(`${"a".repeat(2_000)}… [truncated 3000 chars]`);
    expect(stored.truncated).toBe(true);
  });

  it("redacts a secret that sits across the 2,000-character cut before cutting", () => {
    const c = SECRET_CASES.find((s) => s.kind === "api_key") ?? SECRET_CASES[0];
    if (!c) throw new Error("the secret corpus is empty");
    const at = c.text.indexOf(c.secret);
    const text = `${"x ".repeat(1_000 - Math.floor(at / 2) - 2)}${c.text}`;
    const output = String(cappedPayload({ output: text }).output);
    const fragment = c.secret.slice(0, 8);
    expect(output).not.toContain(fragment);
  });

  it("keeps 50 items of an array and notes how many more there were", () => {
    const stored = cappedPayload({ files: Array.from({ length: 80 }, (_, i) => `f${i}.md`) });
    const files = stored.files as string[];
    expect(files.slice(0, PAYLOAD_LIMITS.arrayItems)).toEqual(
      Array.from({ length: 50 }, (_, i) => `f${i}.md`),
    );
    expect(files.at(-1)).toBe("… [30 more items]");
    expect(files).toHaveLength(51);
    expect(stored.truncated).toBe(true);
  });

  it("replaces nesting deeper than five levels with a note", () => {
    const stored = cappedPayload({ a: { b: { c: { d: { e: { f: 1 } } } } } });
    expect(stored).toEqual({
      a: { b: { c: { d: { e: "… [nested too deep]" } } } },
      truncated: true,
    });
  });

  it("drops the largest top-level fields first until the JSON fits in 8 KiB", () => {
    const stored = cappedPayload({
      toolName: "read_file",
      inputTokens: 900,
      big: Array.from({ length: 50 }, () => "b".repeat(1_900)),
      medium: Array.from({ length: 3 }, () => "m".repeat(1_900)),
      small: "s".repeat(100),
    });
    expect(bytes(stored)).toBeLessThanOrEqual(PAYLOAD_LIMITS.jsonBytes);
    expect(stored).toMatchObject({
      toolName: "read_file",
      inputTokens: 900,
      small: "s".repeat(100),
      truncated: true,
      droppedFields: ["big"],
    });
    expect(stored.medium).toHaveLength(3);
    expect(stored).not.toHaveProperty("big");
  });

  it("drops no more fields than it takes to fit", () => {
    const fields = Object.fromEntries(
      Array.from({ length: 8 }, (_, i) => [`f${i}`, String(i).repeat(1_050 + i)]),
    );
    const stored = cappedPayload(fields);
    expect(bytes(stored)).toBeLessThanOrEqual(PAYLOAD_LIMITS.jsonBytes);
    expect(stored.droppedFields).toEqual(["f7"]);
    expect(Object.keys(stored)).toHaveLength(7 + 2);
  });

  it("fits a payload of huge nested arrays without walking all of it", () => {
    const wide = (level: number): unknown =>
      level === 0 ? "y".repeat(3_000) : Array.from({ length: 60 }, () => wide(level - 1));
    // 216,000 strings: walked whole, the capped copy alone would be 250 MB of JSON.
    const stored = cappedPayload({ tree: wide(3), note: "kept" });
    expect(bytes(stored)).toBeLessThanOrEqual(PAYLOAD_LIMITS.jsonBytes);
    expect(stored).toMatchObject({ note: "kept", truncated: true, droppedFields: ["tree"] });
  });

  it("stores JSON-safe values only and leaves the input untouched", () => {
    const input = {
      when: new Date("2024-01-02T03:04:05.000Z"),
      error: new Error("boom"),
      nan: Number.NaN,
      skip: undefined,
      fn: () => 1,
      list: [undefined, 1],
    };
    const before = { ...input, list: [...input.list] };
    expect(cappedPayload(input)).toEqual({
      when: "2024-01-02T03:04:05.000Z",
      error: { name: "Error", message: "boom" },
      nan: null,
      list: [null, 1],
    });
    expect(input).toEqual(before);
  });
});
