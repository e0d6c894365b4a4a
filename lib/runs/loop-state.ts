// The one object a run's loop moves along (loop.ts): who answers, in which session, into which
// stored message, and how far it got. Also when the reply's first message is stored (once the
// first words are on their way; loop-message.ts stores it) and what else waits for those words.
import "server-only";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { UIMessageStreamWriter } from "ai";
import type { ChatSession, Message, Run } from "@/db/schema";
import type { Profile } from "@/lib/agents/profiles";
import type { Transfer } from "@/lib/agents/transfer/transfer";
import { toChatMessage } from "@/lib/chat/stored-message";
import type { ChatMessage, ContextPart, MessageMetadata } from "@/lib/chat/types";
import { McpConnections } from "@/lib/connections/run-connections";
import { startChatTurn } from "@/lib/metrics";
import { RunAgent } from "./run-agent";
import { RunOutput } from "./run-output";
import type { RunRecorder } from "./run-recorder";
import type { RunRequest } from "./run-request";
import { ReplySaver } from "./run-save";

export interface RunControl {
  /** Fires on a stop (or the caller's own signal): the model call and running tools end. */
  signal: AbortSignal;
  /** The request is being answered now (no longer queued behind a reset): a stop applies. */
  entered: () => void;
}

/** What the run knows of the session it works in now; a reset or a transfer starts it afresh. */
export interface InSession {
  /** Steps of this run in the session. */
  steps: number;
  /** A reset of this run began the session (a quick refill then means thrashing). */
  enteredByReset: boolean;
  /** A reset failed or was declined here: the run goes on without trying again. */
  resetFailed: boolean;
  /** The session's prompt ends with the continue line (the run began in an earlier one). */
  continued: boolean;
}

/**
 * The first message's placeholder (which gives the reply its seq): stored at the first text
 * delta, after OPEN_WITHIN_MS, or as soon as anything needs it, and never after the run ended.
 */
interface Placeholder {
  /** Stores it; null once started, cancelled, or when there is nothing to store later. */
  open: (() => Promise<void>) | null;
  timer?: ReturnType<typeof setTimeout>;
  /** The store in progress, awaited by whatever writes to the message. */
  storing: Promise<void> | null;
}

export interface RunState {
  readonly input: RunRequest;
  readonly writer: UIMessageStreamWriter<ChatMessage>;
  readonly control: RunControl;
  readonly out: RunOutput;
  readonly saver: ReplySaver;
  /** Connections to the user's tool servers, opened on first use, closed when the run ends. */
  readonly mcp: McpConnections;
  /** The id of the one UI message the client sees for the whole run. */
  readonly liveId: string;
  /** The agent the run works as now; a transfer replaces it. */
  agent: RunAgent;
  /** The run's row (absent only before a new run took its claim). */
  run: Run | null;
  /** The run's journal, once the run has its row. */
  recorder: RunRecorder | null;
  session: ChatSession;
  inSession: InSession;
  /** The stored assistant message the current leg streams into. */
  message: Message | null;
  metadata: MessageMetadata | null;
  /** Steps of the whole run. */
  stepCount: number;
  /** The context after the latest step (what the session ends with if the work is transferred). */
  reading: ContextPart | null;
  /** A transfer committed during the current leg, for the loop to switch to its target. */
  committed: Transfer | null;
  /** The request ids the run answers (the view stops at them). */
  answering: string[];
  /** The first view's messages when the request made the thread with them (see view). */
  made: Message[] | undefined;
  readonly placeholder: Placeholder;
  readonly firstWords: { turn: { firstText: () => void }; seen: boolean };
  /** The caller's work deferred until the first text delta (see RunRequest.afterFirstText). */
  deferred: (() => void) | undefined;
}

/** The placeholder waits this long at most for the model's first words. */
const OPEN_WITHIN_MS = 250;

export function enterAgent(
  input: RunRequest,
  profile: Profile,
  modelId: string,
  model: LanguageModelV3,
): Promise<RunAgent> {
  return RunAgent.enter({
    userId: input.actor.id,
    threadId: input.threadId,
    profile,
    modelId,
    model,
    request: input.request,
    threadModelId: input.threadModelId,
  });
}

export async function createRunState(
  input: RunRequest,
  writer: UIMessageStreamWriter<ChatMessage>,
  control: RunControl,
): Promise<RunState> {
  const initial: ChatMessage = input.resume
    ? toChatMessage(input.resume.message)
    : { id: crypto.randomUUID(), role: "assistant", parts: [] };
  const out = new RunOutput(writer, initial, (chunk) => {
    if (chunk.type === "data-context-reset") s.recorder?.reset(chunk.data);
  });
  const agent = await enterAgent(input, input.profile, input.modelId, input.model);
  const s: RunState = {
    input,
    writer,
    control,
    out,
    saver: new ReplySaver({ userId: input.actor.id, threadId: input.threadId }, () => out.peek()),
    mcp: new McpConnections(),
    liveId: initial.id,
    agent,
    run: null,
    recorder: null,
    session: input.session,
    inSession: {
      steps: 0,
      enteredByReset: false,
      resetFailed: input.reviewEnded !== undefined && input.reviewEnded !== "committed",
      continued: false,
    },
    message: null,
    metadata: null,
    stepCount: 0,
    reading: null,
    committed: null,
    answering: [],
    made: undefined,
    placeholder: { open: null, storing: null },
    firstWords: { turn: startChatTurn(), seen: false },
    deferred: input.afterFirstText,
  };
  return s;
}

/** At the run's first text delta: the metric, then what waited for the first words. */
export function firstText(s: RunState): void {
  if (s.firstWords.seen) return;
  s.firstWords.seen = true;
  s.firstWords.turn.firstText();
  // What waited for the first words (the reply's placeholder, the journal's held writes, the
  // caller's deferred work) goes once they are on their way to the client: on PGlite, which runs
  // one statement at a time, each would hold them up.
  setImmediate(() => {
    startPlaceholder(s);
    s.recorder?.release();
    afterFirstText(s);
  });
}

/** Once, at the first text delta or the run's end: what the caller deferred until then. */
export function afterFirstText(s: RunState): void {
  const hook = s.deferred;
  s.deferred = undefined;
  hook?.();
}

export function schedulePlaceholder(s: RunState, open: () => Promise<void>): void {
  s.placeholder.open = open;
  s.placeholder.timer = setTimeout(() => startPlaceholder(s), OPEN_WITHIN_MS);
  s.placeholder.timer.unref?.();
}

export function startPlaceholder(s: RunState): void {
  const { placeholder } = s;
  const open = placeholder.open;
  if (!open) return;
  placeholder.open = null;
  clearTimeout(placeholder.timer);
  placeholder.storing = open();
  // Awaited later; a failure here must not surface as an unhandled rejection meanwhile.
  placeholder.storing.catch(() => undefined);
}

/** A run that ended without needing its placeholder stores none after the end. */
export function cancelPlaceholder(s: RunState): void {
  s.placeholder.open = null;
  clearTimeout(s.placeholder.timer);
}
