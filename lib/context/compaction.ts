// Compaction: the older part of a session is summarized in place; the recent tail stays
// verbatim and the originals stay stored (marked compacted) for people to read.
import "server-only";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { convertToModelMessages, generateText } from "ai";
import { applyCompaction } from "@/db/queries/sessions";
import type { CompactionPart } from "@/lib/chat/types";
import { countCompaction } from "@/lib/metrics";
import { COMPACT_INSTRUCTION } from "./prompts";
import type { SessionContext } from "./session-context";

/** Messages kept verbatim at the end of a compacted session. */
const COMPACTION_TAIL = 4;

export async function compactSession({
  threadId,
  ctx,
  model,
  tokensBefore,
  estimateAfter,
}: {
  threadId: string;
  ctx: SessionContext;
  model: LanguageModelV3;
  tokensBefore: number;
  estimateAfter: (summary: string, keptFromSeq: number) => Promise<number>;
}): Promise<CompactionPart | null> {
  const older = ctx.rows.slice(0, Math.max(0, ctx.rows.length - COMPACTION_TAIL));
  const last = older.at(-1);
  const keptFrom = ctx.rows[older.length];
  if (older.length < 2 || !last || !keptFrom) return null;
  const previous = ctx.session.summary ? `Earlier summary:\n${ctx.session.summary}\n\n` : "";
  const { text } = await generateText({
    model,
    system: `${COMPACT_INSTRUCTION}\n\n${previous}`,
    messages: await convertToModelMessages(ctx.history.slice(0, older.length)),
  });
  const summary = `${previous}${text}`.trim();
  await applyCompaction({ sessionId: ctx.session.id, threadId, throughSeq: last.seq, summary });
  countCompaction();
  return { tokensBefore, tokensAfter: await estimateAfter(summary, keptFrom.seq) };
}
