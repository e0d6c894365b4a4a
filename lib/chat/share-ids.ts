// What a shared thread's visitor gets instead of the thread's ids and positions: every id is
// replaced by an opaque value derived from the share token, and a paging cursor is a position
// sealed with a key derived from the token. Both are keyed by the token alone (256 random bits),
// so they are stable across requests, restarts and replicas, mean nothing under another link,
// and change when the owner revokes the link and shares again.
import "server-only";
import { createCipheriv, createDecipheriv, createHmac } from "node:crypto";
import { BatonError } from "@/core/errors";

/** Kinds of id a shared view replaces; part of the derivation, so two kinds never collide. */
type SharedIdKind = "message" | "session" | "handoff" | "part" | "agent";

/** Largest position a cursor holds (message seqs are 32-bit integers). */
export const MAX_CURSOR_SEQ = 2_147_483_647;
const CURSOR_VERSION = 1;
/** A cursor is one AES block (16 bytes) in base64url. */
const SHARE_CURSOR_PATTERN = /^[A-Za-z0-9_-]{22}$/;

export interface ShareIds {
  /**
   * The opaque stand-in for `id` under this link: 22 base64url characters (132 bits of an
   * HMAC), the same on every page, so list keys and open cards survive paging and remounts.
   */
  id(kind: SharedIdKind, id: string): string;
  /** A paging position (a message seq) sealed for this link. */
  cursor(seq: number): string;
  /** The position a cursor of this link holds; a 400 for a malformed or foreign cursor. */
  readCursor(cursor: string): number;
}

function badCursor(): BatonError {
  return new BatonError(
    "bad_request:cursor",
    "The cursor is malformed or belongs to another link.",
  );
}

/**
 * The id and cursor mapping of one share link. A cursor is one AES-256 block holding a version
 * byte, the seq and eleven zero bytes: opened with another link's key it yields noise, which the
 * zero bytes reject (a forgery passes with odds of 2^-96).
 */
export function shareIds(token: string): ShareIds {
  const derive = (label: string) => createHmac("sha256", token).update(label).digest();
  const idKey = derive("baton share ids v1");
  const cursorKey = derive("baton share cursor v1");
  return {
    id(kind, id) {
      return createHmac("sha256", idKey)
        .update(`${kind}\u0000${id}`)
        .digest("base64url")
        .slice(0, 22);
    },
    cursor(seq) {
      if (!Number.isInteger(seq) || seq < 0 || seq > MAX_CURSOR_SEQ) {
        throw new RangeError(`cursor position out of range: ${seq}`);
      }
      const block = Buffer.alloc(16);
      block.writeUInt8(CURSOR_VERSION, 0);
      block.writeUInt32BE(seq, 1);
      const cipher = createCipheriv("aes-256-ecb", cursorKey, null).setAutoPadding(false);
      return Buffer.concat([cipher.update(block), cipher.final()]).toString("base64url");
    },
    readCursor(cursor) {
      if (!SHARE_CURSOR_PATTERN.test(cursor)) throw badCursor();
      const sealed = Buffer.from(cursor, "base64url");
      // 22 characters carry four bits past 16 bytes: only the canonical spelling is accepted.
      if (sealed.length !== 16 || sealed.toString("base64url") !== cursor) throw badCursor();
      const decipher = createDecipheriv("aes-256-ecb", cursorKey, null).setAutoPadding(false);
      const block = Buffer.concat([decipher.update(sealed), decipher.final()]);
      if (block.readUInt8(0) !== CURSOR_VERSION || block.subarray(5).some((b) => b !== 0)) {
        throw badCursor();
      }
      const seq = block.readUInt32BE(1);
      if (seq > MAX_CURSOR_SEQ) throw badCursor();
      return seq;
    },
  };
}
