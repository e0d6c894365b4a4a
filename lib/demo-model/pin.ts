// The offline model's `remember <fact>`: one pin call with the fact, so every later handoff
// carries it, then the usual confirmation. Without the pin tool it only confirms, as before.
import { call, failureText, lastCall, type OfflineStep, type StepContext, say } from "./steps";

/** The next step of a `remember`; null: the text reply (./replies) confirms it. */
export function stepRemember(ctx: StepContext, fact: string): OfflineStep | null {
  if (!ctx.tools.has("pin")) return null;
  const done = lastCall(ctx.steps, "pin");
  if (!done?.result) return call("pin", { text: fact });
  if (done.result.status === "ok") return null;
  return say(
    `Noted — I'll remember that ${fact} in this session, but I couldn't pin it: ${failureText(done.result)}.`,
  );
}
