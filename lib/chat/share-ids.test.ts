import { describe, expect, it } from "vitest";
import { BatonError } from "@/core/errors";
import { newShareToken } from "./share";
import { MAX_CURSOR_SEQ, shareIds } from "./share-ids";

function refusal(run: () => unknown): { status: number; code: string } | null {
  try {
    run();
    return null;
  } catch (error) {
    if (error instanceof BatonError) return { status: error.status, code: error.code };
    throw error;
  }
}

const BAD_CURSOR = { status: 400, code: "bad_request:cursor" };

describe("share ids", () => {
  it("gives each id one stable stand-in per link and kind, which says nothing of the id", () => {
    const token = newShareToken();
    const id = "4f7c2d0e-8a61-4b7e-9a3f-1c2b3d4e5f60";
    const stand = shareIds(token).id("message", id);
    expect(stand).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(shareIds(token).id("message", id)).toBe(stand);
    expect(shareIds(token).id("session", id)).not.toBe(stand);
    expect(shareIds(newShareToken()).id("message", id)).not.toBe(stand);
    expect(shareIds(token).id("message", `${id}x`)).not.toBe(stand);
    for (const piece of id.split("-")) expect(stand).not.toContain(piece);
  });

  it("reads back the positions its own cursors hold", () => {
    const ids = shareIds(newShareToken());
    for (const seq of [1, 2, 255, 256, 65_537, 10_000_000, MAX_CURSOR_SEQ]) {
      const cursor = ids.cursor(seq);
      expect(cursor).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(ids.readCursor(cursor)).toBe(seq);
    }
    expect(ids.cursor(7)).toBe(ids.cursor(7));
    expect(ids.cursor(7)).not.toBe(ids.cursor(8));
  });

  it("refuses another link's cursor with a 400", () => {
    const mine = shareIds(newShareToken());
    const theirs = shareIds(newShareToken());
    for (const seq of [1, 42, 5000]) {
      expect(refusal(() => mine.readCursor(theirs.cursor(seq)))).toEqual(BAD_CURSOR);
      expect(refusal(() => theirs.readCursor(mine.cursor(seq)))).toEqual(BAD_CURSOR);
    }
  });

  it("refuses a malformed or altered cursor with a 400", () => {
    const ids = shareIds(newShareToken());
    const cursor = ids.cursor(42);
    const altered = (cursor[0] === "A" ? "B" : "A") + cursor.slice(1);
    // The last character carries 4 spare bits: flipping one spells the same bytes differently.
    const last = cursor.at(-1) as string;
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const sibling = alphabet[alphabet.indexOf(last) ^ 1] as string;
    for (const bad of [
      "",
      "x",
      "42",
      "A".repeat(22),
      "A".repeat(21),
      `${cursor}A`,
      cursor.slice(1),
      altered,
      cursor.slice(0, 21) + sibling,
      `${cursor.slice(0, 21)}=`,
      `${cursor.slice(0, 21)}\u0000`,
      "%".repeat(22),
    ]) {
      expect({ bad, refused: refusal(() => ids.readCursor(bad)) }).toEqual({
        bad,
        refused: BAD_CURSOR,
      });
    }
  });
});
