// What a session's divider says about the reset that started it: the ended session's context
// (stored when it ended) beside what the reset measured for the new one (stored on it).
import type { ResetStats } from "@/db/schema";
import type { ResetDetails } from "./types";

interface SessionRow {
  number: number;
  endTokens: number | null;
  endUtilization: number | null;
  resetStats: ResetStats | null;
}

export function resetDetailsOf(
  session: SessionRow,
  previous: SessionRow | undefined,
): ResetDetails | undefined {
  const stats = session.resetStats;
  if (!stats) return undefined;
  const before =
    previous && previous.endTokens !== null && previous.endUtilization !== null
      ? { tokens: previous.endTokens, utilization: previous.endUtilization }
      : null;
  return {
    before,
    after: {
      tokens: stats.startTokens,
      utilization: stats.contextWindow > 0 ? stats.startTokens / stats.contextWindow : 0,
    },
    durationMs: stats.durationMs,
    source: stats.source,
    writerTokens: stats.writerTokens,
  };
}
