import { describe, expect, it } from "vitest";
import { LOOKALIKE_CASES, SECRET_CASES } from "@/tests/support/secret-corpus";
import { redactText } from "./engine";

/** Every 8-character window of the secret: none may survive, so no partial mask passes. */
function fragments(secret: string): string[] {
  if (secret.length <= 8) return [secret];
  return Array.from({ length: secret.length - 7 }, (_, i) => secret.slice(i, i + 8));
}

describe("redactText: secrets as people paste them", () => {
  it("has at least 30 secret cases and 15 look-alikes", () => {
    expect(SECRET_CASES.length).toBeGreaterThanOrEqual(30);
    expect(LOOKALIKE_CASES.length).toBeGreaterThanOrEqual(15);
  });

  it.each(SECRET_CASES.map((c) => [c.name, c] as const))("masks %s", (_name, c) => {
    expect(c.text).toContain(c.secret);
    const { text, kinds } = redactText(c.text);
    for (const fragment of fragments(c.secret)) expect(text).not.toContain(fragment);
    expect(text).toContain(`[REDACTED:${c.kind}]`);
    expect(kinds).toContain(c.kind);
    expect(redactText(text)).toEqual({ text, kinds: [] });
  });
});

describe("redactText: look-alikes stay as they are", () => {
  it.each(LOOKALIKE_CASES.map((c) => [c.name, c.text] as const))("keeps %s", (_name, input) => {
    expect(redactText(input)).toEqual({ text: input, kinds: [] });
  });
});
