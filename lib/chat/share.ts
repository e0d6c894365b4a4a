// Read-only shared threads: tokens, and the thread view a visitor gets — the owner's view with
// secrets in message text masked (the same redaction as handoffs), nothing private kept, and
// every id of the thread's (messages, sessions, handoff key and content id, custom agents'
// slugs) replaced by an opaque stand-in under the link, with paging by cursors only that link
// opens (share-ids.ts).
import "server-only";
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { BatonError } from "@/core/errors";
import { getSharedThreadByToken, shareThread, unshareThread } from "@/db/queries/share";
import { getThread } from "@/db/queries/threads";
import { redactArtifact, redactText } from "@/lib/handoff/redact";
import { loadThreadView } from "@/lib/runs/thread-open";
import { isDefaultAgent } from "./agent-refs";
import type { SharedSessionSummary, SharedThreadPage } from "./share-anchors";
import { MAX_CURSOR_SEQ, type ShareIds, shareIds } from "./share-ids";
import { sharedToolPart } from "./share-tool-parts";
import type { AgentBrief, AgentRef, ChatMessage, HandoffView, SessionSummary } from "./types";

/** 32 random bytes, base64url: 256 bits, far past guessing. */
export function newShareToken(): string {
  return randomBytes(32).toString("base64url");
}

/** What a token looks like; anything else is answered 404 before touching the database. */
export const shareTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{22,128}$/);

export function shareNotFound(): BatonError {
  return new BatonError("not_found:share", "This link does not exist or was revoked.");
}

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

/** The thread's current share token, or null when it is private. */
export async function currentShareToken({
  userId,
  threadId,
}: {
  userId: string;
  threadId: string;
}): Promise<string | null> {
  const thread = await getThread({ userId, threadId });
  if (!thread) throw new BatonError("not_found:thread", "Thread not found.");
  return thread.shareToken;
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

type Part = ChatMessage["parts"][number];

/** Every id a shared page carries, replaced by its stand-in under this link. */
class SharedMapping {
  constructor(readonly ids: ShareIds) {}

  session(id: string): string;
  session(id: string | undefined): string | undefined;
  session(id: string | undefined): string | undefined {
    return id === undefined ? undefined : this.ids.id("session", id);
  }

  message(id: string): string {
    return this.ids.id("message", id);
  }

  /** Part ids name the session they belong to (`session-<id>`, `reset-<id>`); the list reads them. */
  partId(id: string | undefined): string | undefined {
    if (id === undefined) return undefined;
    for (const prefix of ["session-", "reset-"]) {
      if (id.startsWith(prefix))
        return `${prefix}${this.ids.id("session", id.slice(prefix.length))}`;
    }
    return this.ids.id("part", id);
  }

  /**
   * An agent under its stand-in: a custom agent's slug names a row of the owner's. The built-in
   * Default keeps its id (it names nothing of theirs), so the list can tell it from the others.
   * An agent without a profile row is named by its slug in the owner's view; here it is "Agent".
   */
  agent(agent: AgentRef): AgentRef {
    if (isDefaultAgent(agent)) return agent;
    return {
      id: this.ids.id("agent", agent.id),
      name: agent.name === agent.id ? "Agent" : redactText(agent.name).text,
    };
  }

  /** One agent's brief to the next, rebuilt field by field and masked like the rest. */
  brief(brief: AgentBrief): AgentBrief {
    const text = (value: string) => redactText(value).text;
    return {
      from: this.agent(brief.from),
      to: this.agent(brief.to),
      objective: text(brief.objective),
      ...(brief.title === undefined ? {} : { title: text(brief.title) }),
      ...(brief.reason === undefined ? {} : { reason: text(brief.reason) }),
      ...(brief.contextSummary === undefined ? {} : { contextSummary: text(brief.contextSummary) }),
      workspaceRefs: brief.workspaceRefs.map(text),
      mustPreserve: brief.mustPreserve.map(text),
      completionCriteria: brief.completionCriteria.map(text),
      additional: Object.fromEntries(
        Object.entries(brief.additional).map(([key, value]) => [text(key), text(value)]),
      ),
    };
  }

  /**
   * What the handoff card shows, without the handoff's key (for a session handoff, the thread
   * id) or its content id (a hash naming the record): the card keys its open state by the stand-in.
   * Handoffs are redacted when written; they are masked again here so a record stored before a
   * rule existed (or by a path that missed it) still shows no secret to a visitor.
   */
  handoff(handoff: HandoffView): HandoffView {
    const { artifact, redactions } = redactArtifact(handoff.artifact);
    return {
      key: "",
      id: this.ids.id("handoff", handoff.id),
      revision: handoff.revision,
      sessionNumber: handoff.sessionNumber,
      artifact,
      markdown: redactText(handoff.markdown).text,
      createdAt: handoff.createdAt,
      redactions: [...handoff.redactions, ...redactions],
      ...(handoff.dropped
        ? {
            dropped: handoff.dropped.map((d) => ({
              field: d.field,
              item: redactText(d.item).text,
            })),
          }
        : {}),
      ...(handoff.kind ? { kind: handoff.kind } : {}),
      ...(handoff.brief ? { brief: this.brief(handoff.brief) } : {}),
    };
  }

  sessionSummary(session: SessionSummary): SharedSessionSummary {
    return {
      id: this.ids.id("session", session.id),
      number: session.number,
      model: session.model,
      // A custom profile's id names a row of the owner's; the list never shows it.
      profile: "",
      trigger: session.trigger,
      startedAt: session.startedAt,
      endedAt: session.endedAt,
      firstSeq: session.firstSeq,
      messageCount: session.messageCount,
      handoff: session.handoff ? this.handoff(session.handoff) : null,
      cursor: session.firstSeq === null ? null : this.ids.cursor(session.firstSeq),
      ...(session.agent ? { agent: this.agent(session.agent) } : {}),
      // Counts, a duration and a source name: nothing of the owner's to hide.
      ...(session.reset ? { reset: session.reset } : {}),
    };
  }

  /**
   * Parts a reader sees or the list needs to place sessions, rebuilt field by field so nothing
   * else rides along; tool calls keep their input, result and outcome, redacted, under stand-in
   * ids (share-tool-parts.ts); reasoning stays private, text loses its provider metadata.
   */
  part(part: Part): Part | null {
    switch (part.type) {
      case "text":
        return {
          type: "text",
          text: redactText(part.text).text,
          ...(part.state ? { state: part.state } : {}),
        };
      case "step-start":
        return { type: "step-start" };
      case "data-session": {
        const { id, number, model, trigger, startedAt } = part.data;
        return {
          type: "data-session",
          id: this.partId(part.id),
          data: { id: this.session(id), number, model, profile: "", trigger, startedAt },
        };
      }
      case "data-compaction":
        return {
          type: "data-compaction",
          id: this.partId(part.id),
          data: { tokensBefore: part.data.tokensBefore, tokensAfter: part.data.tokensAfter },
        };
      case "data-context-reset": {
        const { event, sessionNumber, utilization, threshold, reason, handoff } = part.data;
        return {
          type: "data-context-reset",
          id: this.partId(part.id),
          data: {
            event,
            oldSessionId: this.session(part.data.oldSessionId),
            newSessionId: this.session(part.data.newSessionId),
            sessionNumber,
            utilization,
            threshold,
            reason: reason === undefined ? undefined : redactText(reason).text,
            code: part.data.code,
            pins: part.data.pins?.map((pin) => redactText(pin).text),
            handoff: handoff ? this.handoff(handoff) : undefined,
            movedMessageIds: part.data.movedMessageIds?.map((id) => this.message(id)),
          },
        };
      }
      case "data-agent-handoff":
        // A stored page draws the handoff's divider from its session, whose handoff is the brief.
        return null;
      default:
        return sharedToolPart(part, (id) => this.ids.id("part", id));
    }
  }

  chatMessage(message: ChatMessage): ChatMessage {
    const parts = message.parts.flatMap((part) => {
      const kept = this.part(part);
      return kept ? [kept] : [];
    });
    const { seq, sessionId, status, model, agent, createdAt } = message.metadata ?? {};
    return {
      id: this.message(message.id),
      role: message.role,
      parts,
      metadata: {
        seq,
        sessionId: this.session(sessionId),
        status,
        model,
        ...(agent ? { agent: this.agent(agent) } : {}),
        createdAt,
      },
    };
  }
}

/** Where a cursor (plus skip) points; a 400 for a cursor of another link or a position past the end. */
function positionOf(ids: ShareIds, cursor: string, skip: number): number {
  const seq = ids.readCursor(cursor) + skip;
  if (seq < 1 || seq > MAX_CURSOR_SEQ) {
    throw new BatonError("bad_request:cursor", "The cursor and skip point past the thread.");
  }
  return seq;
}

/**
 * A page of a shared thread for any visitor, with no id of the thread's in it; null when the
 * token opens nothing. Without a cursor, the newest page. Throws a 400 for a bad cursor.
 */
export async function loadSharedThreadView({
  token,
  before,
  from,
  skip = 0,
  limit,
}: {
  token: string;
  before?: string;
  from?: string;
  skip?: number;
  limit?: number;
}): Promise<SharedThreadPage | null> {
  if (!shareTokenSchema.safeParse(token).success) return null;
  const ids = shareIds(token);
  const beforeSeq = before === undefined ? undefined : positionOf(ids, before, skip);
  const fromSeq = from === undefined ? undefined : positionOf(ids, from, skip);
  const thread = await getSharedThreadByToken({ token });
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
  const mapping = new SharedMapping(ids);
  return {
    thread: {
      title: redactText(view.thread.title).text,
      createdAt: view.thread.createdAt,
      updatedAt: view.thread.updatedAt,
    },
    sessions: view.sessions.map((s) => mapping.sessionSummary(s)),
    messages: view.messages.map((m) => mapping.chatMessage(m)),
    // A page read forward covers from its `from` position: its older cursor stands there.
    olderCursor: view.olderCursor === null ? null : ids.cursor(fromSeq ?? view.olderCursor),
    newerCursor: view.newerCursor === null ? null : ids.cursor(view.newerCursor),
  };
}
