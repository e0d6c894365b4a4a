// What the thread API and the chat page return: the thread, its sessions with their handoffs,
// the newest page of messages and the current context utilization, scoped to the acting user.
// A read model: it reads and measures, and leaves opening the thread (recovery, drafts past
// their time) to its caller.
import "server-only";
import { getDb } from "@/db/client";
import { getHandoffRevisionsByIds } from "@/db/queries/handoff-reads";
import { listLiveStreams } from "@/db/queries/live-streams";
import { hasMessagesBefore, listThreadMessages } from "@/db/queries/messages";
import { listThreadPins } from "@/db/queries/pins";
import { getAwaitingDraft } from "@/db/queries/reset-drafts";
import { getActiveReset } from "@/db/queries/resets";
import { listSessions } from "@/db/queries/sessions";
import type { ReviewResets, Thread } from "@/db/schema";
import { resolveProfile } from "@/lib/agents/profiles";
import { builtinToolTokens } from "@/lib/context/call-overhead";
import { handoffViewOf, measureContext, systemPromptFor } from "@/lib/context/session-context";
import { loadAgentNames } from "./agent-names";
import { draftViewOf } from "./draft-view";
import { activeResetOf, liveStreamOf, withoutLiveRows } from "./live-rows";
import { resetDetailsOf } from "./reset-details";
import { toAttributedMessage } from "./stored-message";
import type {
  ActiveResetView,
  ChatMessage,
  ContextPart,
  DraftView,
  LiveStream,
  SessionSummary,
  ThreadPinView,
} from "./types";

export interface ThreadView {
  thread: {
    id: string;
    title: string;
    model: string;
    /** The slug of the agent the thread runs with (`default` for the built-in one). */
    profile: string;
    createdAt: string;
    updatedAt: string;
  };
  sessions: SessionSummary[];
  messages: ChatMessage[];
  /** Sequence number to pass as `beforeSeq` for the previous page, or null at the start. */
  olderCursor: number | null;
  /**
   * For a page read forward (`fromSeq`): the seq to pass as `fromSeq` for the next page, or null
   * at the end. Always null for the newest page.
   */
  newerCursor: number | null;
  /** The current session's utilization, so the context meter is never blank after a reload. */
  context: ContextPart | null;
  /**
   * Ids of user messages the server is still answering on its own (queued behind a reset, or
   * orphaned by a server that died and being answered on recovery). The page shows them as
   * "answering…" and polls until the list is empty.
   */
  answering: string[];
  /** Replies being streamed now, for the page to follow (see `LiveStream`). */
  live: LiveStream[];
  /** The reset running now, if any. */
  reset: ActiveResetView | null;
  /** The thread's current pins, oldest first: what the next handoff carries in must_preserve. */
  pins: ThreadPinView[];
  /** The handoff drafted for review that holds the current session, if any. */
  draft: DraftView | null;
  /**
   * Whether the thread's agent reviews resets: the reset button asks for a draft unless `never`.
   * Read with the context, so absent from pages read without it (older pages).
   */
  review?: ReviewResets;
}

export function publicThread(thread: Thread): ThreadView["thread"] {
  return {
    id: thread.id,
    title: thread.title,
    model: thread.model,
    profile: thread.profile,
    createdAt: thread.createdAt.toISOString(),
    updatedAt: thread.updatedAt.toISOString(),
  };
}

export interface ThreadPageRequest {
  userId: string;
  threadId: string;
  beforeSeq?: number;
  /** False for readers who show no context meter (the shared view): skips measuring it. */
  withContext?: boolean;
  /** Read forward from this seq instead (a page that opens a session); excludes `beforeSeq`. */
  fromSeq?: number;
  limit?: number;
}

/** The view of `thread`, the acting user's (the caller has read it). */
export async function readThreadView({
  userId,
  threadId,
  thread,
  beforeSeq,
  fromSeq,
  limit = 100,
  withContext = true,
}: ThreadPageRequest & { thread: Thread }): Promise<ThreadView> {
  const [sessions, stored, profile, liveStreams, activeReset, pinRows, draft] = await Promise.all([
    listSessions({ userId, threadId }),
    listThreadMessages({ userId, threadId, beforeSeq, fromSeq, limit }),
    // Only the context reading (and `review`, read with it) needs the thread's profile.
    withContext ? resolveProfile({ userId, profileId: thread.profile }) : null,
    listLiveStreams({ userId, threadId }),
    getActiveReset({ userId, threadId }),
    listThreadPins(getDb(), { userId, threadId }),
    getAwaitingDraft({ userId, threadId }),
  ]);
  // Rows a live stream is writing are left out (a reader following the stream gets them).
  const page = { ...stored, messages: withoutLiveRows(stored.messages, liveStreams) };
  const revisionIds = sessions.flatMap((s) => (s.handoffRevisionId ? [s.handoffRevisionId] : []));
  // A reply without a recorded writer was written by its session's agent.
  const sessionProfiles = new Map(sessions.map((s) => [s.id, s.profile]));
  const writerOf = (row: (typeof page.messages)[number]) =>
    row.agent ?? sessionProfiles.get(row.sessionId) ?? thread.profile;
  const [revisions, agentOf] = await Promise.all([
    getHandoffRevisionsByIds({ ownerId: userId, revisionIds }),
    loadAgentNames({
      userId,
      slugs: [
        ...sessionProfiles.values(),
        ...page.messages.flatMap((m) => (m.role === "assistant" ? [writerOf(m)] : [])),
      ],
    }),
  ]);
  const handoffs = new Map(revisions.map((r) => [r.id, handoffViewOf(r, r.handoffKey)]));
  const summaries: SessionSummary[] = sessions.map((s, i) => ({
    id: s.id,
    number: s.number,
    model: s.model,
    profile: s.profile,
    trigger: s.trigger,
    startedAt: s.startedAt.toISOString(),
    endedAt: s.endedAt?.toISOString() ?? null,
    firstSeq: s.firstSeq,
    messageCount: s.messageCount,
    handoff: s.handoffRevisionId ? (handoffs.get(s.handoffRevisionId) ?? null) : null,
    agent: agentOf(s.profile),
    ...withReset(resetDetailsOf(s, sessions[i - 1])),
  }));
  const current = sessions.at(-1);
  const currentSummary = summaries.at(-1);
  const context =
    current && profile
      ? await measureContext({
          session: current,
          system: systemPromptFor(profile, currentSummary?.handoff ?? null, current.summary),
          modelId: thread.model,
          profile,
          // Every call carries the tool definitions: a session with no reported usage yet
          // must count them, or the meter reads low until its first call.
          toolTokens: await builtinToolTokens(thread.model),
        })
      : null;
  return {
    thread: publicThread(thread),
    sessions: summaries,
    messages: page.messages.map((row) => toAttributedMessage(row, agentOf(writerOf(row)))),
    olderCursor: await olderCursorOf({ userId, threadId, fromSeq, page }),
    newerCursor:
      fromSeq !== undefined && page.hasMore ? (page.messages.at(-1)?.seq ?? 0) + 1 : null,
    context,
    // Read from the stored rows: a question whose reply streams live is not unanswered.
    answering: fromSeq === undefined ? unansweredAtEnd(stored.messages) : [],
    live: liveStreams.map(liveStreamOf),
    reset: activeReset ? activeResetOf(activeReset) : null,
    pins: (pinRows ?? []).flatMap((p) =>
      p.state === "pinned" ? [{ id: p.id, text: p.text }] : [],
    ),
    draft: draft && draft.fromSession === current?.number ? draftViewOf(draft) : null,
    ...(profile ? { review: profile.reviewResets } : {}),
  };
}

function withReset(reset: SessionSummary["reset"]): Pick<SessionSummary, "reset"> {
  return reset ? { reset } : {};
}

/**
 * The user messages at the end of the newest page with no reply under them yet: queued ones, and
 * those whose reply the server has not started (a recovering server answers them in seq order).
 */
function unansweredAtEnd(rows: readonly { id: string; role: string; seq: number }[]) {
  const ids: string[] = [];
  for (let i = rows.length - 1; i >= 0; i--) {
    const row = rows[i];
    if (row?.role !== "user") break;
    ids.unshift(row.id);
  }
  // Only the trailing run of user messages counts: an earlier one's answer may sit further down
  // when several were queued, so a gap mid-page is not evidence of a missing reply.
  return ids;
}

async function olderCursorOf({
  userId,
  threadId,
  fromSeq,
  page,
}: {
  userId: string;
  threadId: string;
  fromSeq?: number;
  page: { messages: { seq: number }[]; hasMore: boolean };
}): Promise<number | null> {
  const first = page.messages[0]?.seq ?? null;
  if (fromSeq === undefined) return page.hasMore ? first : null;
  const cursor = first ?? fromSeq;
  return (await hasMessagesBefore({ userId, threadId, seq: cursor })) ? cursor : null;
}
