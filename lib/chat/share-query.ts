// The paging query of a shared thread's read-only list. Positions are opaque cursors the server
// handed out under the same link (`before`: the page that ends right above it; `from`: the page
// that starts there), optionally moved forward by `skip` positions to open an unloaded stretch
// the reader scrolled into. Raw sequence numbers are not accepted.
import { z } from "zod";

/** How far past a cursor a page may start (a thread holds at most 2^31 messages). */
const MAX_SHARE_SKIP = 1_000_000_000;

export const sharePageQuerySchema = z
  .strictObject({
    before: z.string().max(64).optional(),
    from: z.string().max(64).optional(),
    skip: z.coerce.number().int().min(0).max(MAX_SHARE_SKIP).default(0),
    limit: z.coerce.number().int().min(1).max(500).default(100),
  })
  .refine((page) => page.before === undefined || page.from === undefined, {
    message: "Pass before or from, not both.",
    path: ["from"],
  })
  .refine((page) => page.skip === 0 || page.before !== undefined || page.from !== undefined, {
    message: "skip moves from a cursor: pass before or from with it.",
    path: ["skip"],
  });
