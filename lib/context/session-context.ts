// What a session's model call sees — the profile's system prompt, the carried-over handoff
// block, a compaction summary, the session's own messages — and how full that context is.
import "server-only";
import type { PlanItem } from "@/core/plan-items";
import { getHandoffRevisionById } from "@/db/queries/handoff-reads";
import { listSessionMessages } from "@/db/queries/messages";
import { sumTokensSince } from "@/db/queries/resets";
import type { ChatSession, HandoffRevision, Message } from "@/db/schema";
import type { Profile } from "@/lib/agents/profiles";
import {
  loadWorkspacePromptContext,
  workspacePromptContext,
} from "@/lib/agents/tools/prompt-context";
import { resolveModelInfo, resolveStrategy } from "@/lib/ai/registry";
import {
  estimateTokens,
  MESSAGE_OVERHEAD_TOKENS,
  PROMPT_OVERHEAD_TOKENS,
} from "@/lib/ai/token-count";
import { messageText } from "@/lib/chat/request";
import { toChatMessage } from "@/lib/chat/stored-message";
import type { ChatMessage, ContextPart, HandoffView } from "@/lib/chat/types";
import { handoffArtifactSchema } from "@/lib/handoff/artifact";
import { renderCarriedOverBlock } from "@/lib/handoff/brief";
import { renderHandoffMarkdown } from "@/lib/handoff/markdown";
import { calibrated } from "./calibration";
import { priorRatio } from "./calibration-prior";
import { computeUtilization, sessionContextTokens } from "./policy";

const SUMMARY_OPEN_TAG = "<compacted-summary>";
const SUMMARY_CLOSE_TAG = "</compacted-summary>";

export function handoffViewOf(rev: HandoffRevision, key: string): HandoffView {
  return {
    key,
    revision: rev.revision,
    id: rev.contentId,
    sessionNumber: rev.sessionNumber ?? rev.revision,
    artifact: handoffArtifactSchema.parse(rev.artifact),
    markdown: rev.markdown,
    createdAt: rev.createdAt.toISOString(),
    redactions: rev.redactions,
    dropped: rev.dropped,
    kind: rev.kind,
    ...(rev.brief ? { brief: rev.brief } : {}),
  };
}

export interface SessionContext {
  session: ChatSession;
  system: string;
  brief: HandoffView | null;
  /** The thread's plan, rendered into `system` with the workspace's file list. */
  plan: PlanItem[];
  /** The plan and file-list blocks of `system` ("" when the thread has neither). */
  workspace: string;
  /** Stored rows the model sees, in order. */
  rows: Message[];
  /** Every stored row of the session as it was read, the model's or not. */
  stored: Message[];
  history: ChatMessage[];
}

function isEmptyPartial(m: Message): boolean {
  return m.role === "assistant" && m.status !== "complete" && messageText(m.parts).length === 0;
}

/**
 * The system prompt of a session's model calls: the profile's prompt, the carried-over handoff,
 * the thread's plan and file list (`workspace`, read fresh for every call since tools change it)
 * and a compaction summary.
 */
/**
 * The carried-over block of a reset's handoff. A brief whose markdown is the artifact's own
 * rendering is carried in the compact form (empty sections left out); markdown written some other
 * way (the handoff API) is carried as written.
 */
export function carriedOverBlockOf(brief: HandoffView): string {
  const markdown =
    brief.markdown === renderHandoffMarkdown(brief.artifact)
      ? renderHandoffMarkdown(brief.artifact, { omitEmpty: true })
      : brief.markdown;
  return renderCarriedOverBlock(markdown, {
    revision: brief.revision,
    sessionNumber: brief.sessionNumber,
  });
}

export function systemPromptFor(
  profile: Profile,
  brief: HandoffView | null,
  summary: string | null,
  workspace = "",
) {
  const blocks = [profile.systemPrompt];
  // One agent's brief to the next is read as it was written; a reset's handoff, as carried over.
  if (brief?.kind === "agent_handoff") blocks.push(brief.markdown);
  else if (brief) blocks.push(carriedOverBlockOf(brief));
  if (workspace) blocks.push(workspace);
  if (summary) blocks.push(`${SUMMARY_OPEN_TAG}\n${summary}\n${SUMMARY_CLOSE_TAG}`);
  return blocks.join("\n\n");
}

/**
 * Loads the session's context. Queued messages are left out unless named in `answering`, and
 * when answering a queued message nothing stored after it is shown to the model.
 */
export async function loadSessionContext({
  userId,
  threadId,
  session,
  profile,
  answering = [],
  made,
}: {
  userId: string;
  threadId: string;
  session: ChatSession;
  profile: Profile;
  answering?: string[];
  /**
   * The session's messages when this request made the thread with them: nothing else can be in
   * it yet (no plan, no file, no handoff), so nothing is read.
   */
  made?: Message[];
}): Promise<SessionContext> {
  const [all, rev, workspace] = made
    ? [made, null, workspacePromptContext([], [])]
    : await Promise.all([
        listSessionMessages({ userId, threadId, sessionId: session.id }),
        session.handoffRevisionId
          ? getHandoffRevisionById({ ownerId: userId, revisionId: session.handoffRevisionId })
          : Promise.resolve(null),
        loadWorkspacePromptContext({ userId, threadId }),
      ]);
  const brief = rev ? handoffViewOf(rev, rev.handoffKey) : null;
  const answeringSet = new Set(answering);
  const lastAnswered = all.filter((m) => answeringSet.has(m.id)).at(-1)?.seq;
  const rows = all.filter(
    (m) =>
      !m.compacted &&
      !isEmptyPartial(m) &&
      (m.status !== "queued" || answeringSet.has(m.id)) &&
      (lastAnswered === undefined || m.seq <= lastAnswered || m.role === "assistant"),
  );
  return {
    session,
    system: systemPromptFor(profile, brief, session.summary, workspace.text),
    brief,
    plan: workspace.plan,
    workspace: workspace.text,
    rows,
    history: rows.map(toChatMessage),
    stored: all,
  };
}

/** `sumTokensSince` over rows in hand: the cached estimates of those after `afterSeq`, not compacted. */
function tokensSince(stored: Message[], afterSeq: number): number {
  let sum = 0;
  for (const m of stored) if (m.seq > afterSeq && !m.compacted) sum += m.tokenCount;
  return sum;
}

/**
 * The ratio a session's estimates are scaled by: its own, learned from its reported calls, or
 * before the first of them the prior of its model's family (null when neither is known).
 */
async function sessionRatio(session: ChatSession, modelId: string): Promise<number | null> {
  return session.tokenRatio ?? (await priorRatio(modelId));
}

/**
 * Utilization before a model call: the provider-reported input tokens of the session's last
 * call plus the cached estimates of messages stored since, scaled by the session's learned
 * ratio (see `sessionRatio`). The handoff and summary calls never report here, so they cannot
 * re-trigger a reset.
 */
export async function measureContext({
  session,
  system,
  modelId,
  profile,
  toolTokens = 0,
  stored,
}: {
  session: ChatSession;
  system: string;
  modelId: string;
  profile: Profile;
  /** The session's stored rows when they were just read: what was stored since is summed here. */
  stored?: Message[];
  /**
   * The tool definitions the next call sends. Providers count them as input, so a reported
   * figure already holds them; only the estimate made without one must add them.
   */
  toolTokens?: number;
}): Promise<ContextPart> {
  const reported = session.lastInputTokens;
  const afterSeq = reported === null ? 0 : (session.lastInputSeq ?? 0);
  const [since, ratio] = await Promise.all([
    stored ? tokensSince(stored, afterSeq) : sumTokensSince({ sessionId: session.id, afterSeq }),
    sessionRatio(session, modelId),
  ]);
  const estimated =
    reported === null
      ? PROMPT_OVERHEAD_TOKENS +
        MESSAGE_OVERHEAD_TOKENS +
        estimateTokens(system, modelId) +
        toolTokens +
        since
      : since;
  const inputTokens = sessionContextTokens({
    lastReportedInputTokens: reported,
    estimatedSinceLastCall: calibrated(estimated, ratio),
  });
  const { contextWindow } = resolveModelInfo(modelId);
  return {
    inputTokens,
    contextWindow,
    utilization: computeUtilization({ contextTokens: inputTokens, contextWindow }),
    threshold: profile.resetThreshold,
    strategy: resolveStrategy(profile.contextStrategy, modelId),
    ...(ratio === null ? {} : { calibration: ratio }),
  };
}
