// Which agent each row of the message list belongs to (docs/message-list.md): the agent of each
// session, the writer of each reply and, for a session one agent handed to another, who handed
// it to whom. A thread that only ever ran the built-in Default shows none of it. Pure, for
// lib/chat/format-messages.ts.
import { agentRefOf, isDefaultAgent } from "./agent-refs";
import type { AgentHandoffPart, AgentRef, ChatMessage, SessionSummary } from "./types";

/** A session divider's line for an agent handoff: "<from> → <to>", the reason under it. */
export interface DividerHandoff {
  from: AgentRef;
  to: AgentRef;
  title?: string;
  reason?: string;
}

const NO_NAMES: ReadonlyMap<string, string> = new Map();

export class ThreadAgents {
  /** Slug → the agent as the freshest source names it (the server's sessions first). */
  private readonly known = new Map<string, AgentRef>();
  private readonly bySession = new Map<number, AgentRef | undefined>();
  /** Whether the thread has any agent besides the built-in Default: only then are agents shown. */
  readonly shown: boolean;

  constructor(
    private readonly sessions: ReadonlyMap<number, SessionSummary>,
    messages: readonly ChatMessage[],
    private readonly handoffParts: ReadonlyMap<number, AgentHandoffPart>,
  ) {
    const learn = (agent: AgentRef | undefined) => {
      if (agent && !this.known.has(agent.id)) this.known.set(agent.id, agent);
    };
    for (const session of sessions.values()) learn(session.agent);
    let other = false;
    for (const message of messages) {
      const agent = message.metadata?.agent;
      learn(agent);
      if (agent && !isDefaultAgent(agent)) other = true;
    }
    for (const part of handoffParts.values()) {
      learn(part.from);
      learn(part.to);
    }
    for (const number of sessions.keys()) {
      const agent = this.session(number);
      if (agent && !isDefaultAgent(agent)) other = true;
    }
    this.shown = other;
  }

  /** The session's agent: as the server named it, else by its profile's slug. */
  session(number: number): AgentRef | undefined {
    if (this.bySession.has(number)) return this.bySession.get(number);
    const session = this.sessions.get(number);
    const slug = session?.agent?.id ?? session?.profile;
    // A shared thread's sessions name no profile: without an agent they have none to show.
    const agent = slug ? (this.known.get(slug) ?? agentRefOf(slug, NO_NAMES)) : undefined;
    this.bySession.set(number, agent);
    return agent;
  }

  /** Who wrote a reply shown in session `number`: its own record, else the session's agent. */
  writer(message: ChatMessage, number: number): AgentRef | undefined {
    if (message.role !== "assistant") return undefined;
    return message.metadata?.agent ?? this.session(number);
  }

  /** For a session an agent handed over: its brief's agents under their current names. */
  handoff(number: number): DividerHandoff | undefined {
    const session = this.sessions.get(number);
    const part = this.handoffParts.get(number);
    const handoff = session?.handoff ?? part?.handoff ?? null;
    const byAgent =
      session?.trigger === "agent_handoff" || handoff?.kind === "agent_handoff" || part;
    if (!byAgent) return undefined;
    const brief = handoff?.brief;
    const named = (ref: AgentRef | undefined) => (ref ? (this.known.get(ref.id) ?? ref) : ref);
    const from = named(brief?.from ?? part?.from) ?? this.session(number - 1);
    const to = named(brief?.to ?? part?.to) ?? this.session(number);
    if (!from || !to) return undefined;
    const title = brief?.title ?? part?.title;
    const reason = brief?.reason ?? part?.reason;
    return {
      from,
      to,
      ...(title ? { title } : {}),
      ...(reason ? { reason } : {}),
    };
  }
}

/**
 * Who wrote each stretch of a live reply that crossed sessions, given the agent handoff that
 * opened each stretch (none for the first, or one a reset opened): a handoff's source wrote up
 * to it, its target from it on, and a reset changes no writer. Undefined where no handoff says:
 * the reply's metadata then holds (the stream stamps it with the agent writing now, so it speaks
 * for the last stretch only once a handoff happened).
 */
export function stretchWriters(
  openedBy: readonly (AgentHandoffPart | undefined)[],
): (AgentRef | undefined)[] {
  const writers: (AgentRef | undefined)[] = openedBy.map(() => undefined);
  for (const [i, handoff] of openedBy.entries()) {
    if (!handoff) continue;
    writers[i] = handoff.to;
    for (let j = i - 1; j >= 0 && writers[j] === undefined; j--) writers[j] = handoff.from;
  }
  for (let i = 1; i < writers.length; i++) writers[i] ??= writers[i - 1];
  return writers;
}
