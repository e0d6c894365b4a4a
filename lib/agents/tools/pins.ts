// pin: pins a fact or instruction on the thread, so every later handoff carries it in
// must_preserve until a person unpins it (docs/handoffs.md#pins). readOnly: it changes nothing
// but what the next handoff carries.
import "server-only";
import { tool, zodSchema } from "ai";
import { z } from "zod";
import { flattenPin, PIN_MAX_CHARS } from "@/core/pin-text";
import { getDb } from "@/db/client";
import { pinText } from "@/db/queries/pins";
import { asToolResult, failure, type ToolContext } from "./context";

export interface PinOutput {
  ok: true;
  /** The text as stored (secrets masked). */
  pinned: string;
}

// Built once: the SDK turns each into its JSON schema on first use and keeps it.
const pinInput = zodSchema(z.object({ text: z.string() }));

export function createPinTools(ctx: ToolContext) {
  return {
    pin: tool({
      // Short: every session's calls carry it.
      description: "Pin a fact or instruction so every later handoff keeps it.",
      inputSchema: pinInput,
      execute: async ({ text }) =>
        asToolResult<PinOutput>(async () => {
          const flat = flattenPin(text);
          if (flat === "") return failure("Give the text to pin.");
          if (flat.length > PIN_MAX_CHARS) {
            return failure(
              `A pin holds at most ${PIN_MAX_CHARS} characters (this one has ${flat.length}); pin a shorter statement.`,
            );
          }
          const pin = await pinText((ctx.db ?? getDb)(), {
            userId: ctx.userId,
            threadId: ctx.threadId,
            text,
            source: "agent",
          });
          if (!pin) return failure("This conversation is gone.");
          return { ok: true, pinned: pin.text };
        }),
    }),
  };
}
