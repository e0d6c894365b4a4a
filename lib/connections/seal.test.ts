import { describe, expect, it } from "vitest";
import { openToken, sealKeyFor, sealToken } from "./seal";

const key = sealKeyFor("first-secret-0123456789abcdef0123456789");
const other = sealKeyFor("second-secret-0123456789abcdef012345678");

describe("sealing tokens", () => {
  it("opens what it sealed, and the sealed text does not contain the token", () => {
    const sealed = sealToken("ghp_abcdefghijklmnop", key);
    expect(sealed).not.toContain("ghp_abcdefghijklmnop");
    expect(sealed.startsWith(`v1.${key.id}.`)).toBe(true);
    expect(openToken(sealed, key)).toBe("ghp_abcdefghijklmnop");
  });

  it("seals the same token differently each time", () => {
    expect(sealToken("t", key)).not.toBe(sealToken("t", key));
  });

  it("cannot open under another secret, tampered with, or not sealed at all", () => {
    const sealed = sealToken("ghp_abcdefghijklmnop", key);
    expect(other.id).not.toBe(key.id);
    expect(openToken(sealed, other)).toBeNull();
    // Same key id, other key: the tag check fails.
    expect(openToken(sealed.replace(key.id, other.id), other)).toBeNull();
    const parts = sealed.split(".");
    const body = Buffer.from(parts[3] ?? "", "base64url");
    body[0] = (body[0] ?? 0) ^ 1;
    parts[3] = body.toString("base64url");
    expect(openToken(parts.join("."), key)).toBeNull();
    expect(openToken("ghp_abcdefghijklmnop", key)).toBeNull();
    expect(openToken("", key)).toBeNull();
  });
});
