// What a thread's messages say about its sessions (docs/message-list.md): the sessions that
// committed resets and agent handoffs started, the messages they moved, and the session each
// message's first part runs in.
import type {
  AgentHandoffPart,
  ChatMessage,
  HandoffView,
  SessionPart,
  SessionSummary,
} from "./types";

export type Part = ChatMessage["parts"][number];

/** Where a live message crosses into a new session: a committed reset or an agent handoff. */
export interface SessionBoundary {
  number: number;
  oldSessionId?: string;
  newSessionId?: string;
  handoff?: HandoffView;
  movedMessageIds: string[];
  /** Set when an agent handed the run to another. */
  agentHandoff?: AgentHandoffPart;
}

export function sessionBoundary(part: Part | undefined): SessionBoundary | null {
  if (part?.type === "data-agent-handoff") {
    const { sessionNumber, oldSessionId, newSessionId, handoff, movedMessageIds } = part.data;
    return {
      number: sessionNumber,
      oldSessionId,
      newSessionId,
      handoff,
      movedMessageIds: movedMessageIds ?? [],
      agentHandoff: part.data,
    };
  }
  if (part?.type !== "data-context-reset" || part.data.event !== "reset_complete") return null;
  // A completed reset without its session number cannot be placed; it stays inside its message.
  const { sessionNumber, oldSessionId, newSessionId, handoff, movedMessageIds } = part.data;
  if (sessionNumber === undefined) return null;
  return {
    number: sessionNumber,
    oldSessionId,
    newSessionId,
    handoff,
    movedMessageIds: movedMessageIds ?? [],
  };
}

/** Known sessions by number, from the thread API and, for live threads, from stream parts. */
export class SessionRegistry {
  readonly byNumber = new Map<number, SessionSummary>();
  private readonly numberById = new Map<string, number>();

  add(session: SessionSummary): void {
    if (this.byNumber.has(session.number)) return;
    this.byNumber.set(session.number, session);
    if (session.id) this.numberById.set(session.id, session.number);
  }

  replace(session: SessionSummary): void {
    this.byNumber.set(session.number, session);
  }

  numberOf(id: string | undefined): number | undefined {
    return id === undefined ? undefined : this.numberById.get(id);
  }

  get(number: number): SessionSummary {
    return this.byNumber.get(number) ?? synthesizeSession({ number });
  }
}

export function synthesizeSession(
  fields: Partial<SessionSummary> & Pick<SessionSummary, "number">,
): SessionSummary {
  return {
    id: "",
    model: "",
    profile: "",
    trigger: "threshold",
    startedAt: "",
    endedAt: null,
    firstSeq: null,
    messageCount: 0,
    handoff: null,
    ...fields,
  };
}

export interface ResetScan {
  registry: SessionRegistry;
  /** Message id → the session number a committed reset moved it into. */
  movedTo: Map<string, number>;
  /** Session numbers started by a completed reset or an agent handoff found in the list. */
  startedInList: Set<number>;
  /** Session number → the live agent handoff that started it. */
  agentHandoffs: Map<number, AgentHandoffPart>;
}

/**
 * One pass over every part: what committed resets, agent handoffs and `data-session` parts say
 * about sessions.
 */
export function scanResets(messages: ChatMessage[], sessions: SessionSummary[]): ResetScan {
  const registry = new SessionRegistry();
  for (const session of sessions) registry.add(session);

  const movedTo = new Map<string, number>();
  const startedInList = new Set<number>();
  const boundaries = new Map<number, SessionBoundary>();
  const agentHandoffs = new Map<number, AgentHandoffPart>();
  const sessionParts = new Map<string, SessionPart>();
  /** The latest user message so far in the list that the server has not placed yet. */
  let lastUser: string | undefined;
  for (const message of messages) {
    if (message.role === "user") {
      lastUser = message.metadata?.sessionId === undefined ? message.id : undefined;
    }
    for (const part of message.parts) {
      if (part.type === "data-session") {
        if (!sessionParts.has(part.data.id)) sessionParts.set(part.data.id, part.data);
        continue;
      }
      const boundary = sessionBoundary(part);
      if (!boundary) continue;
      startedInList.add(boundary.number);
      if (!boundaries.has(boundary.number)) boundaries.set(boundary.number, boundary);
      if (boundary.agentHandoff && !agentHandoffs.has(boundary.number)) {
        agentHandoffs.set(boundary.number, boundary.agentHandoff);
      }
      // The target's session holds the request it answers: the server moves it there. A part
      // that does not list what moved means the user message the reply sits under, if the
      // list has it only as sent (a stored one already sits in its session).
      const moved =
        boundary.agentHandoff && !boundary.agentHandoff.movedMessageIds && lastUser
          ? [lastUser]
          : boundary.movedMessageIds;
      for (const id of moved) movedTo.set(id, boundary.number);
    }
  }

  for (const [number, data] of boundaries) {
    const known = registry.byNumber.get(number);
    if (known) {
      // `sessions` may predate the handoff being attached; the stream's copy is newer.
      if (!known.handoff && data.handoff) registry.replace({ ...known, handoff: data.handoff });
      continue;
    }
    const announced = data.newSessionId ? sessionParts.get(data.newSessionId) : undefined;
    const previous = registry.byNumber.get(registry.numberOf(data.oldSessionId) ?? number - 1);
    const target = data.agentHandoff?.to;
    registry.add(
      synthesizeSession({
        number,
        id: data.newSessionId ?? "",
        model: announced?.model ?? previous?.model ?? "",
        // An agent handoff gives the session to its target; a reset keeps the agent.
        profile: announced?.profile ?? target?.id ?? previous?.profile ?? "",
        trigger: announced?.trigger ?? (target ? "agent_handoff" : "threshold"),
        startedAt: announced?.startedAt ?? data.handoff?.createdAt ?? "",
        handoff: data.handoff ?? null,
        ...(target ? { agent: target } : previous?.agent ? { agent: previous.agent } : {}),
      }),
    );
  }
  for (const announced of sessionParts.values()) {
    if (registry.numberOf(announced.id) !== undefined) continue;
    const { id, number, model, profile, trigger, startedAt } = announced;
    registry.add(synthesizeSession({ id, number, model, profile, trigger, startedAt }));
  }
  return { registry, movedTo, startedInList, agentHandoffs };
}

/**
 * The session a message's first part runs in, from what the message itself says: the session a
 * reset or agent handoff it carries started from (most specific: the server may stamp either
 * session in metadata), its metadata, or the `data-session` part a turn starts with.
 */
export function ownSession(message: ChatMessage, registry: SessionRegistry): number | undefined {
  let announced: number | undefined;
  for (const part of message.parts) {
    if (part.type === "data-agent-handoff") {
      const from = registry.numberOf(part.data.oldSessionId);
      if (from !== undefined) return from;
      break;
    }
    if (part.type === "data-context-reset") {
      // Part ids are `reset-<fromSessionId>` (docs/streams.md): that covers events sent without
      // oldSessionId.
      const fromId =
        part.data.oldSessionId ?? (part.id?.startsWith("reset-") ? part.id.slice(6) : undefined);
      const from = registry.numberOf(fromId);
      if (from !== undefined) return from;
      break;
    }
    if (part.type === "data-session" && announced === undefined) {
      announced = registry.numberOf(part.data.id);
    }
  }
  return registry.numberOf(message.metadata?.sessionId) ?? announced;
}
