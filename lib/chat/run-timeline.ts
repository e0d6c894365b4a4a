// The run timeline as a reader follows it (components/chat/run-timeline.tsx): the journal's
// events grouped by the agent invocation they belong to, in order, each described in a line,
// with the time things took and the tokens the payloads report. Pure; the payload fields read
// here are the ones docs/journal.md lists.
import type { RunEventView } from "@/lib/agents/journal-schemas";
import { inThreadOrder } from "./format-messages";
import type { ChatMessage } from "./types";

export interface TimelineEvent {
  event: RunEventView;
  title: string;
  /** A second line: a reason, a path, an error. */
  detail: string | null;
  /** How long the step took, when the event ends one (a tool result, a resolved approval…). */
  tookMs: number | null;
  inputTokens: number | null;
  outputTokens: number | null;
}

export interface TimelineGroup {
  key: string;
  /** The agent's slug; null for events of the run as a whole (its end). */
  agent: string | null;
  invocationId: string | null;
  events: TimelineEvent[];
  /** From the invocation's started event to its completed one (or null without both). */
  durationMs: number | null;
}

/** Agent slugs to display names (GET /api/profiles); a slug missing here shows as itself. */
export type AgentNames = ReadonlyMap<string, string>;

const text = (value: unknown): string | null =>
  typeof value === "string" && value.trim().length > 0 ? value : null;
const count = (value: unknown): number | null =>
  typeof value === "number" && Number.isFinite(value) ? value : null;

/** An agent named in a payload: a slug, or `{ id, name }` as AgentRef carries it. */
function agentLabel(value: unknown, names: AgentNames): string | null {
  if (typeof value === "string") return names.get(value) ?? text(value);
  if (value && typeof value === "object") {
    const { id, name } = value as { id?: unknown; name?: unknown };
    return text(name) ?? (typeof id === "string" ? (names.get(id) ?? text(id)) : null);
  }
  return null;
}

export function agentName(slug: string, names: AgentNames): string {
  return names.get(slug) ?? slug;
}

/** The two agents of a transfer event, from whichever fields its payload has. */
function transferEnds(payload: Record<string, unknown>, event: RunEventView, names: AgentNames) {
  const from =
    agentLabel(payload.from, names) ?? (event.agent ? agentName(event.agent, names) : null);
  const to = agentLabel(payload.to ?? payload.agentId ?? payload.target, names);
  return { from: from ?? "?", to: to ?? "?", line: `${from ?? "?"} → ${to ?? "?"}` };
}

function toolArgsDetail(payload: Record<string, unknown>): string | null {
  const args = (payload.args ?? payload.input) as Record<string, unknown> | undefined;
  if (!args || typeof args !== "object") return null;
  return text(args.path) ?? text(args.from) ?? null;
}

function describedEvent(
  event: RunEventView,
  names: AgentNames,
): Pick<TimelineEvent, "title" | "detail"> {
  const p = event.payload;
  const tool = text(p.toolName) ?? "a tool";
  const reason = text(p.reason) ?? text(p.failureReason) ?? text(p.error);
  const transfer = transferEnds(p, event, names);
  switch (event.type) {
    case "agent_invocation_created":
      return { title: `Invocation created for ${transfer.to}`, detail: reason };
    case "agent_invocation_started":
      return { title: "Started", detail: text(p.model) };
    case "agent_invocation_transferred":
      return { title: `Transferred: ${transfer.line}`, detail: reason };
    case "agent_invocation_completed":
      return { title: "Completed", detail: reason };
    case "context_assembled": {
      const messages = count(p.messageCount);
      return {
        title: "Context assembled",
        detail: messages === null ? null : `${messages} messages`,
      };
    }
    case "tool_call":
      return { title: `Called ${tool}`, detail: toolArgsDetail(p) };
    case "tool_result":
      return p.ok === false || text(p.error)
        ? { title: `${tool} failed`, detail: text(p.error) }
        : { title: `${tool} returned`, detail: toolArgsDetail(p) };
    case "approval_requested":
      return { title: `Asked to approve ${tool}`, detail: toolArgsDetail(p) };
    case "approval_resolved":
      return {
        title: p.approved === false ? `${tool} denied by the user` : `${tool} approved`,
        detail: reason,
      };
    case "agent_handoff_requested":
      return { title: `Transfer requested: ${transfer.line}`, detail: reason ?? text(p.objective) };
    case "agent_handoff_accepted":
      return { title: `Transfer accepted: ${transfer.line}`, detail: reason ?? text(p.objective) };
    case "agent_handoff_denied":
      return { title: `Transfer denied: ${transfer.line}`, detail: reason };
    case "reset_started":
      return { title: "Context reset started", detail: reason };
    case "reset_awaiting_review":
      return { title: "Handoff waits for your review", detail: reason };
    case "reset_committed": {
      const session = count(p.sessionNumber);
      return {
        title: session === null ? "Context reset" : `Context reset to session ${session}`,
        detail: reason,
      };
    }
    case "reset_failed":
      return { title: "Context reset failed", detail: reason };
    case "run_completed":
      return { title: "Run completed", detail: reason };
    case "run_failed":
      return { title: "Run failed", detail: reason };
    default:
      return { title: event.type.replaceAll("_", " "), detail: reason };
  }
}

/** The event that began the step `event` ends, matched by the id both payloads carry. */
const STEP_STARTS: Record<string, { type: string; id: string }> = {
  tool_result: { type: "tool_call", id: "toolCallId" },
  approval_resolved: { type: "approval_requested", id: "approvalId" },
  reset_committed: { type: "reset_started", id: "resetId" },
  reset_failed: { type: "reset_started", id: "resetId" },
};

const time = (event: RunEventView) => Date.parse(event.at);

function tookMs(event: RunEventView, before: readonly RunEventView[]): number | null {
  const start = STEP_STARTS[event.type];
  if (!start) return null;
  const id = event.payload[start.id];
  // Without the id, the nearest start in the same invocation.
  const began = before.findLast(
    (e) =>
      e.type === start.type &&
      (id !== undefined ? e.payload[start.id] === id : e.invocationId === event.invocationId),
  );
  return began ? Math.max(0, time(event) - time(began)) : null;
}

/** A new group starts where the invocation (or, without one, the agent) changes. */
const groupKey = (event: RunEventView) => event.invocationId ?? event.agent ?? null;

export function timelineGroups(
  events: readonly RunEventView[],
  names: AgentNames = new Map(),
): TimelineGroup[] {
  const groups: TimelineGroup[] = [];
  for (const [index, event] of events.entries()) {
    const key = groupKey(event);
    let group = groups.at(-1);
    if (!group || (group.invocationId ?? group.agent) !== key) {
      group = {
        key: `${event.seq}-${key ?? "run"}`,
        agent: event.agent,
        invocationId: event.invocationId,
        events: [],
        durationMs: null,
      };
      groups.push(group);
    }
    group.events.push({
      event,
      ...describedEvent(event, names),
      tookMs: tookMs(event, events.slice(0, index)),
      inputTokens: count(event.payload.inputTokens),
      outputTokens: count(event.payload.outputTokens),
    });
  }
  for (const group of groups) {
    const started = group.events.find((e) => e.event.type === "agent_invocation_started");
    const completed = group.events.findLast((e) => e.event.type === "agent_invocation_completed");
    group.durationMs =
      started && completed ? Math.max(0, time(completed.event) - time(started.event)) : null;
  }
  return groups;
}

/** An event's time since the run's first: "+850 ms", "+3.4 s", "+2:05" past a minute. */
export function formatOffset(ms: number): string {
  if (ms < 60_000) return `+${formatDuration(ms)}`;
  const seconds = Math.floor(ms / 1_000);
  return `+${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/** "850 ms", "3.4 s", "2 min 5 s". */
export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1_000);
  return seconds === 0 ? `${minutes} min` : `${minutes} min ${seconds} s`;
}

/**
 * Each reply's question: the nearest user message above it in thread order (a reply is stored
 * right under the message it answers, and a reply split by a reset has both halves there).
 * The timeline looks the run up by that message.
 */
export function replyRequestIds(messages: readonly ChatMessage[]): Map<string, string> {
  const requests = new Map<string, string>();
  let question: string | null = null;
  for (const message of threadOrder(messages)) {
    if (message.role === "user")
      question = message.metadata?.status === "queued" ? null : message.id;
    else if (message.role === "assistant" && question) requests.set(message.id, question);
  }
  return requests;
}

/**
 * `inThreadOrder`, without its pass over the stored messages already in seq order (a long
 * thread's loaded pages): only the messages after them are ordered, unless one of those sorts
 * among them. Called on each page that loads, so it must not cost a set of every id.
 */
function threadOrder(messages: readonly ChatMessage[]): readonly ChatMessage[] {
  let end = 0;
  let last = Number.NEGATIVE_INFINITY;
  for (; end < messages.length; end++) {
    const seq = messages[end]?.metadata?.seq;
    if (seq === undefined || seq <= last) break;
    last = seq;
  }
  if (end === messages.length) return messages;
  const rest = messages.slice(end);
  const unsequenced = new Set<string>();
  for (const message of rest) {
    const seq = message.metadata?.seq;
    if (seq !== undefined && seq <= last) return inThreadOrder([...messages]);
    if (seq === undefined) unsequenced.add(message.id);
  }
  // A message without a seq repeated among the ordered ones: the full pass keeps the first.
  // (One with a seq above theirs is none of them.)
  for (let i = 0; unsequenced.size > 0 && i < end; i++) {
    if (unsequenced.has((messages[i] as ChatMessage).id)) return inThreadOrder([...messages]);
  }
  return [...messages.slice(0, end), ...inThreadOrder(rest)];
}
