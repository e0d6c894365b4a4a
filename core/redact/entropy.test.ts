import { describe, expect, it } from "vitest";
import { randomToken } from "@/tests/support/secret-corpus";
import { looksRandom, redactHighEntropy, shannonEntropy } from "./entropy";

describe("shannonEntropy", () => {
  it("is 0 for one repeated character and log2(n) for n distinct ones", () => {
    expect(shannonEntropy("aaaaaaaa")).toBe(0);
    expect(shannonEntropy("abcdefgh")).toBe(3);
  });
});

describe("looksRandom", () => {
  it("accepts nearly every random alphanumeric token of 20+ characters", () => {
    // The word-run test lets a few random tokens pass as words; docs/security.md states the rate.
    const tokens = Array.from({ length: 200 }, (_, i) => randomToken(20 + (i % 30)));
    expect(tokens.filter(looksRandom).length).toBeGreaterThanOrEqual(190);
  });

  it.each([
    ["hex (one letter case)", "3f2a9c0d1e4b5a6978f0e1d2c3b4a59687f0e1d2"],
    ["camelCase identifier", "getSecretAccessKeyFromVault2"],
    ["snake_case identifier", "refresh_api_token_before_expiry_v2"],
    ["too short", "aB3dE5fG7hJ9kL1mN3p"],
    ["no digit", "aBcDeFgHiJkLmNoPqRsTuVwXyZ"],
    ["a word run", "Supercalifragilistic2Expialidocious"],
  ])("rejects %s", (_name, token) => {
    expect(looksRandom(token)).toBe(false);
  });
});

describe("redactHighEntropy", () => {
  const token = randomToken(32);

  it("masks a random token after a keyword on the same line", () => {
    expect(redactHighEntropy(`api credential => ${token}`)).toEqual({
      text: "api credential => [REDACTED:high_entropy]",
      found: true,
    });
  });

  it("leaves a random token with no keyword before it on its line", () => {
    const text = `token:\n${token}`;
    expect(redactHighEntropy(text)).toEqual({ text, found: false });
  });

  it("leaves one a keyword stands far before", () => {
    const text = `secret ${"word ".repeat(12)}${token}`;
    expect(redactHighEntropy(text)).toEqual({ text, found: false });
  });

  it("does not count a marker's kind as a keyword", () => {
    const text = `[REDACTED:api_key] ${token}`;
    expect(redactHighEntropy(text)).toEqual({ text, found: false });
  });

  it("leaves URL paths and data: URI payloads", () => {
    const text = `secret link https://example.com/${token} and key icon data:image/png;base64,${token}`;
    expect(redactHighEntropy(text)).toEqual({ text, found: false });
  });
});

describe("the keyword's sentence", () => {
  const token = randomToken(40);

  it("masks a random token in the keyword's own sentence", () => {
    expect(redactHighEntropy(`The deploy token is ${token} for now.`).text).not.toContain(token);
  });

  it("leaves a token a sentence later alone: the keyword spoke of something else", () => {
    const text = `The window is 128000 tokens. Fixture payload ${token} decodes to a PNG.`;
    expect(redactHighEntropy(text).text).toBe(text);
  });
});
