// What the thread API and the chat page return: the thread, its sessions, the newest page of
// messages and the current context utilization, scoped to the acting user.
import "server-only";
import { listThreadMessages } from "@/db/queries/messages";
import { listSessions } from "@/db/queries/sessions";
import { getThread } from "@/db/queries/threads";
import type { Thread } from "@/db/schema";
import { toChatMessage } from "./stored-message";
import type { ChatMessage, SessionSummary } from "./types";

export interface ThreadView {
  thread: { id: string; title: string; model: string; createdAt: string; updatedAt: string };
  sessions: SessionSummary[];
  messages: ChatMessage[];
  /** Sequence number to pass as `beforeSeq` for the previous page, or null at the start. */
  olderCursor: number | null;
}

export function publicThread(thread: Thread): ThreadView["thread"] {
  return {
    id: thread.id,
    title: thread.title,
    model: thread.model,
    createdAt: thread.createdAt.toISOString(),
    updatedAt: thread.updatedAt.toISOString(),
  };
}

export async function loadThreadView({
  userId,
  threadId,
  beforeSeq,
  limit = 100,
}: {
  userId: string;
  threadId: string;
  beforeSeq?: number;
  limit?: number;
}): Promise<ThreadView | null> {
  const thread = await getThread({ userId, threadId });
  if (!thread) return null;
  const [sessions, page] = await Promise.all([
    listSessions({ userId, threadId }),
    listThreadMessages({ userId, threadId, beforeSeq, limit }),
  ]);
  return {
    thread: publicThread(thread),
    sessions: sessions.map((s) => ({
      id: s.id,
      number: s.number,
      model: s.model,
      profile: s.profile,
      trigger: s.trigger,
      startedAt: s.startedAt.toISOString(),
      endedAt: s.endedAt?.toISOString() ?? null,
      firstSeq: s.firstSeq,
      messageCount: s.messageCount,
      handoff: null,
    })),
    messages: page.messages.map(toChatMessage),
    olderCursor: page.hasMore ? (page.messages[0]?.seq ?? null) : null,
  };
}
