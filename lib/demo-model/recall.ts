// The offline model's `recall <words>`: one search_history call, then a reply that quotes what it
// found with each snippet's citation (the part of the conversation and the message or file).
import {
  call,
  clip,
  failureText,
  lastCall,
  missingTool,
  type OfflineStep,
  type StepContext,
  say,
} from "./steps";
import { inputField } from "./transcript";

export function stepRecall(ctx: StepContext, query: string): OfflineStep {
  if (!ctx.tools.has("search_history")) {
    return missingTool("search the earlier conversation", "search_history");
  }
  const done = lastCall(ctx.steps, "search_history");
  if (!done?.result) return call("search_history", { query });
  if (done.result.status !== "ok") {
    return say(`I couldn't search the earlier conversation: ${failureText(done.result)}.`);
  }
  const results = inputField(done.result.value, "results");
  const note = inputField(done.result.value, "note");
  if (!Array.isArray(results) || results.length === 0) {
    return say(
      typeof note === "string" && note
        ? `I found nothing for “${clip(query, 80)}”. ${note}`
        : `I found nothing for “${clip(query, 80)}” in the earlier conversation.`,
    );
  }
  const lines = results.map((result) => {
    const cite = inputField(result, "cite");
    const snippet = inputField(result, "snippet");
    return `- ${String(cite)}: “${clip(typeof snippet === "string" ? snippet : "", 320)}”`;
  });
  const count = results.length;
  return say(
    [
      `I found ${count} earlier mention${count === 1 ? "" : "s"} of “${clip(query, 80)}”:`,
      ...lines,
    ].join("\n"),
  );
}
