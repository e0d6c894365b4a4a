// Read-only shared threads: tokens, and the thread view a visitor gets — the owner's view with
// secrets in message text masked (the same redaction as handoffs) and nothing private kept.
import "server-only";
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { getSharedThreadByToken, shareThread, unshareThread } from "@/db/queries/share";
import { BatonError } from "@/lib/errors";
import { redactText } from "@/lib/handoff/redact";
import { loadThreadView } from "./thread-view";
import type { ChatMessage, SessionSummary } from "./types";

/** 32 random bytes, base64url: 256 bits, far past guessing. */
export function newShareToken(): string {
  return randomBytes(32).toString("base64url");
}

/** What a token looks like; anything else is answered 404 before touching the database. */
export const shareTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{22,128}$/);

export function sharePath(token: string): string {
  return `/share/${token}`;
}

export async function createShareLink({
  userId,
  threadId,
}: {
  userId: string;
  threadId: string;
}): Promise<{ token: string; created: boolean }> {
  const shared = await shareThread({ userId, threadId, token: newShareToken() });
  if (!shared) throw new BatonError("not_found:thread", "Thread not found.");
  return shared;
}

export async function revokeShareLink({
  userId,
  threadId,
}: {
  userId: string;
  threadId: string;
}): Promise<void> {
  if (!(await unshareThread({ userId, threadId }))) {
    throw new BatonError("not_found:thread", "Thread not found.");
  }
}

export interface SharedThreadView {
  thread: { title: string; createdAt: string; updatedAt: string };
  sessions: SessionSummary[];
  messages: ChatMessage[];
  olderCursor: number | null;
  newerCursor: number | null;
}

type Part = ChatMessage["parts"][number];

/** Parts a reader sees or the list needs to place sessions; tool calls and reasoning stay private. */
function sharedPart(part: Part): Part | null {
  switch (part.type) {
    case "text":
      return { ...part, text: redactText(part.text).text };
    case "step-start":
    case "data-session":
    case "data-compaction":
      return part;
    case "data-context-reset":
      // The handoff inside was redacted when it was written.
      return part;
    default:
      return null;
  }
}

export function sharedMessage(message: ChatMessage): ChatMessage {
  const parts = message.parts.flatMap((part) => {
    const kept = sharedPart(part);
    return kept ? [kept] : [];
  });
  const { seq, sessionId, status, model, createdAt } = message.metadata ?? {};
  return {
    id: message.id,
    role: message.role,
    parts,
    metadata: { seq, sessionId, status, model, createdAt },
  };
}

/** A page of a shared thread for any visitor; null when the token opens nothing. */
export async function loadSharedThreadView({
  token,
  beforeSeq,
  fromSeq,
  limit,
}: {
  token: string;
  beforeSeq?: number;
  fromSeq?: number;
  limit?: number;
}): Promise<SharedThreadView | null> {
  if (!shareTokenSchema.safeParse(token).success) return null;
  const thread = await getSharedThreadByToken(token);
  if (!thread) return null;
  // The token is the visitor's capability; the owner's id scopes the queries to this thread's
  // rows exactly as the owner's own view would be.
  const view = await loadThreadView({
    userId: thread.userId,
    threadId: thread.id,
    beforeSeq,
    fromSeq,
    limit,
    withContext: false,
  });
  if (!view) return null;
  return {
    thread: {
      title: redactText(view.thread.title).text,
      createdAt: view.thread.createdAt,
      updatedAt: view.thread.updatedAt,
    },
    sessions: view.sessions,
    messages: view.messages.map(sharedMessage),
    olderCursor: view.olderCursor,
    newerCursor: view.newerCursor,
  };
}
