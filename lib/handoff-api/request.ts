// The `{key}` segment of the handoff routes: decoded once more (keys never contain `%`, so a
// client that encoded one twice still names it) and validated; a malformed key is a 400.
import { z } from "zod";
import { BatonError, type FieldErrors } from "@/core/errors";
import { handoffKeySchema } from "./schemas";

const decodedKey = z.string().transform((raw, ctx) => {
  try {
    return decodeURIComponent(raw);
  } catch {
    ctx.addIssue({ code: "custom", message: "Not a valid key." });
    return z.NEVER;
  }
});

export const keyParamsSchema = z.object({ key: decodedKey.pipe(handoffKeySchema) });

export function invalidKey(fields: FieldErrors): BatonError {
  const messages = fields.key ?? ["Invalid handoff key."];
  return new BatonError("bad_request:key", messages[0] ?? "Invalid handoff key.", {
    key: messages,
  });
}
