// The paging query of a thread's messages, shared by the owner's thread API and the shared
// read-only view: newest page by default, older pages with beforeSeq, a session's first page
// with fromSeq.
import { z } from "zod";

export const threadPageQuerySchema = z
  .object({
    beforeSeq: z.coerce.number().int().min(1).optional(),
    // Reads forward from a seq, e.g. the first page of a session the reader jumped to.
    fromSeq: z.coerce.number().int().min(1).optional(),
    limit: z.coerce.number().int().min(1).max(500).default(100),
  })
  .refine((page) => page.beforeSeq === undefined || page.fromSeq === undefined, {
    message: "Pass beforeSeq or fromSeq, not both.",
    path: ["fromSeq"],
  });
