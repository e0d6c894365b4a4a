// The divider's account of the reset that started a session: context before → after, how long
// it took, who wrote the handoff and the tokens that cost.
import type { ResetDetails } from "@/lib/chat/types";

const SOURCE_LABELS: Record<ResetDetails["source"], string> = {
  model: "written by the model",
  repaired: "written by the model after one repair",
  mechanical: "assembled without the model",
};

function percent(utilization: number): string {
  return `${Math.round(utilization * 100)}%`;
}

function duration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}

function resetDetailsLine(reset: ResetDetails): string {
  const context = reset.before
    ? `context ${percent(reset.before.utilization)} → ${percent(reset.after.utilization)}`
    : `context now ${percent(reset.after.utilization)}`;
  const tokens =
    reset.source === "mechanical" && reset.writerTokens === 0
      ? null
      : `${reset.writerTokens.toLocaleString("en-US")} tokens to write`;
  return [
    context,
    `reset took ${duration(reset.durationMs)}`,
    `handoff ${SOURCE_LABELS[reset.source] ?? reset.source}`,
    tokens,
  ]
    .filter(Boolean)
    .join(" · ");
}

export function ResetDetailsLine({ reset }: { reset: ResetDetails }) {
  const title = [
    reset.before ? `Before: ${reset.before.tokens.toLocaleString("en-US")} tokens` : null,
    `After: about ${reset.after.tokens.toLocaleString("en-US")} tokens`,
  ]
    .filter(Boolean)
    .join(" · ");
  return (
    <p
      className="mt-0.5 text-center text-xs text-zinc-600 dark:text-zinc-400"
      data-testid="reset-details"
      title={title}
    >
      {resetDetailsLine(reset)}
    </p>
  );
}
