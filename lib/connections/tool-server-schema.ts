// What POST /api/tool-servers and PATCH /api/tool-servers/{id} accept (docs/connections.md).
// Strict: an unknown key is a field error. Plain zod, no I/O: the address policy is checked by
// the API logic before anything is stored.
import { z } from "zod";
import { REMOTE_TOOL_NAME_PATTERN } from "@/core/mcp-tool-names";

const TOOL_SERVER_SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{0,31}$/;
const MAX_URL_LENGTH = 2000;
const MAX_TOKEN_LENGTH = 4096;
const MAX_READ_ONLY_TOOLS = 200;

const toolServerSlugSchema = z
  .string()
  .regex(
    TOOL_SERVER_SLUG_PATTERN,
    "Use 1–32 lowercase letters, digits and hyphens, starting with a letter or digit (e.g. github).",
  );

const toolServerUrlSchema = z
  .string()
  .trim()
  .max(MAX_URL_LENGTH, `A URL is at most ${MAX_URL_LENGTH} characters.`)
  .transform((raw, ctx) => {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      ctx.addIssue({ code: "custom", message: "Enter the server's full URL (https://…)." });
      return z.NEVER;
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      ctx.addIssue({ code: "custom", message: "Only http and https URLs are supported." });
      return z.NEVER;
    }
    if (url.username || url.password) {
      ctx.addIssue({
        code: "custom",
        message: "Put credentials in the token field, not in the URL.",
      });
      return z.NEVER;
    }
    url.hash = "";
    return url.href;
  });

/** A bearer token: visible ASCII without spaces (what an Authorization header can carry). */
const toolServerTokenSchema = z
  .string()
  .max(MAX_TOKEN_LENGTH, `A token is at most ${MAX_TOKEN_LENGTH} characters.`)
  .regex(/^[\x21-\x7e]+$/, "A token is printable ASCII without spaces.");

export const createToolServerBodySchema = z.strictObject({
  slug: toolServerSlugSchema,
  url: toolServerUrlSchema,
  token: toolServerTokenSchema.optional(),
});
export type CreateToolServerBody = z.output<typeof createToolServerBodySchema>;

export const patchToolServerBodySchema = z
  .strictObject({
    url: toolServerUrlSchema,
    /** A new token, or null to remove the stored one. */
    token: toolServerTokenSchema.nullable(),
    readOnlyTools: z
      .array(z.string().regex(REMOTE_TOOL_NAME_PATTERN, "Not a tool name."))
      .max(MAX_READ_ONLY_TOOLS, `At most ${MAX_READ_ONLY_TOOLS} tools.`)
      .transform((names) => [...new Set(names)]),
  })
  .partial()
  .refine((patch) => Object.keys(patch).length > 0, {
    message: "Nothing to change: send at least one field.",
  });
export type PatchToolServerBody = z.output<typeof patchToolServerBodySchema>;

/** The `{id}` path segment; a malformed one names no server (404, like a missing one). */
export const toolServerParamsSchema = z.object({ id: z.uuid() });
