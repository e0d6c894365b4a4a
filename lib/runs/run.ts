// A run: the model's steps and tool calls answering one request, in one UI message stream, over
// as many sessions as it needs. The loop is: enter a session → stream a leg (streamText until it
// answers, hits the step limit, asks for approval or fills the context) → store what the leg
// produced → end the run, or reset between two steps and go on in the next session.
import "server-only";
import type { LanguageModelV3 } from "@ai-sdk/provider";
import {
  consumeStream,
  createUIMessageStream,
  createUIMessageStreamResponse,
  type ToolSet,
  type UIMessageStreamWriter,
} from "ai";
import { BatonError } from "@/core/errors";
import { log } from "@/core/log";
import { updateMessage } from "@/db/queries/messages";
import { appendMessageAfter } from "@/db/queries/placement";
import { finishRun, placeRunStart, recordRunProgress } from "@/db/queries/runs";
import { recordSessionUsage } from "@/db/queries/sessions";
import { listSessionGrants } from "@/db/queries/tool-grants";
import type { ChatSession, Message, Run, RunStatus } from "@/db/schema";
import type { Profile } from "@/lib/agents/profiles";
import { STOPPED_CALL, settleStoppedCalls } from "@/lib/agents/tool-parts";
import { loadWorkspacePromptContext } from "@/lib/agents/tools/prompt-context";
import { type AcceptedHandoff, LegGuard } from "@/lib/agents/transfer/guard";
import { agentHandoffPart, type Transfer, transferToAgent } from "@/lib/agents/transfer/transfer";
import { toChatMessage } from "@/lib/chat/stored-message";
import type { ChatMessage, ContextPart, MessageMetadata, MessageStatus } from "@/lib/chat/types";
import { McpConnections } from "@/lib/connections/run-connections";
import { draftAheadSoon } from "@/lib/context/draft-ahead";
import { messageTokenCount } from "@/lib/context/message-tokens";
import { decideContextAction } from "@/lib/context/policy";
import { systemPromptFor } from "@/lib/context/session-context";
import { startChatTurn } from "@/lib/metrics";
import { recordStream } from "@/lib/streams/record";
import { registerLiveStream } from "@/lib/streams/stop-registry";
import { recoveryOf } from "./recovery-registry";
import { RunAgent } from "./run-agent";
import { type SessionView, viewSession } from "./run-context";
import { RunOutput } from "./run-output";
import { RunRecorder } from "./run-recorder";
import { type RunRequest, STATUS_OF, THRASH_STEPS, thrashPart } from "./run-request";
import { resetBetweenSteps } from "./run-reset";
import { ReplySaver, SAVE_INTERVAL_MS } from "./run-save";
import { currentSessionOr, enterSession, prepareFirstCall } from "./run-session";
import { type LegEnd, type LegResult, streamLeg } from "./run-steps";

type Writer = UIMessageStreamWriter<ChatMessage>;

interface RunControl {
  /** Fires on a stop (or the caller's own signal): the model call and running tools end. */
  signal: AbortSignal;
  /** The request is being answered now (no longer queued behind a reset): a stop applies. */
  entered: () => void;
}

export type { RunRequest } from "./run-request";

export function streamRun(input: RunRequest): Response {
  // The stream the run's claim named: recorded so any tab can follow it, stopped only by a stop.
  const streamId = input.claimed?.streamId ?? input.resume?.run.streamId ?? null;
  const live = streamId
    ? registerLiveStream({
        streamId,
        userId: input.actor.id,
        threadId: input.threadId,
        // A reply queued behind a reset is not stopped until it is being answered.
        stoppable: !input.queued,
      })
    : null;
  const signals = [live?.signal, input.signal].filter((s): s is AbortSignal => s !== undefined);
  const control: RunControl = {
    signal: AbortSignal.any(signals),
    entered: () => live?.setStoppable(true),
  };
  const stream = createUIMessageStream<ChatMessage>({
    execute: async ({ writer }) => {
      try {
        await new RunLoop(input, writer, control).run();
      } finally {
        live?.unregister();
      }
    },
    onError: (error) => {
      log.error("run failed", error);
      return error instanceof BatonError ? error.message : "The model failed to answer. Try again.";
    },
  });
  return createUIMessageStreamResponse({
    stream,
    // Tee the stream and drain one copy here (recording it) so the run goes on without a client.
    consumeSseStream: ({ stream: copy }) =>
      streamId ? recordStream(streamId, copy) : consumeStream({ stream: copy }),
  });
}

/** At most this long a run's first journal writes wait for its first token (see startJournal). */
const JOURNAL_HOLD_MS = 1000;

/** The reply's placeholder waits this long at most for the model's first words. */
const OPEN_WITHIN_MS = 250;

class RunLoop {
  /** The agent the run works as now; a handoff replaces it. */
  private agent!: RunAgent;
  private readonly out: RunOutput;
  /** The id of the one UI message the client sees for the whole run. */
  private readonly liveId: string;
  private session: ChatSession;
  /** The stored assistant message the current leg streams into. */
  private message: Message | null = null;
  /**
   * The first message's placeholder while it is being stored (see startRun): whatever writes to
   * that message, or names it, waits for it.
   */
  private opening: Promise<void> | null = null;
  /** The caller's work deferred until the first text delta (see RunRequest.afterFirstText). */
  private deferred: (() => void) | undefined;
  private runRow: Run | null = null;
  /** The run's journal, once the run has its row. */
  private recorder: RunRecorder | null = null;
  /** A handoff committed during the current leg, for the loop to switch to its target. */
  private committed: Transfer | null = null;
  /** The context after the latest step (what the session ends with if it is handed off). */
  private reading: ContextPart | null = null;
  private stepCount = 0;
  /** Steps of this run in the current session, and whether a reset of this run began it. */
  private sessionSteps = 0;
  private enteredByReset = false;
  private resetFailed = false;
  private continued = false;
  private answering: string[] = [];
  /** The first view's messages when the request made the thread with them (see `view`). */
  private made: Message[] | undefined;
  private metadata: MessageMetadata | null = null;
  private readonly saver: ReplySaver;
  /** Records the run's time to first token (lib/metrics). */
  private firstText: () => void = () => {};
  /** Connections to the user's tool servers, opened on first use, closed when the run ends. */
  private readonly mcp = new McpConnections();

  private get scope() {
    return this.agent.scope;
  }

  constructor(
    private readonly input: RunRequest,
    private readonly writer: Writer,
    private readonly control: RunControl,
  ) {
    this.session = input.session;
    this.deferred = input.afterFirstText;
    this.resetFailed = input.reviewEnded !== undefined && input.reviewEnded !== "committed";
    const initial: ChatMessage = input.resume
      ? toChatMessage(input.resume.message)
      : { id: crypto.randomUUID(), role: "assistant", parts: [] };
    this.out = new RunOutput(writer, initial, (chunk) => {
      if (chunk.type === "data-context-reset") this.recorder?.reset(chunk.data);
    });
    this.liveId = initial.id;
    this.saver = new ReplySaver({ userId: input.actor.id, threadId: input.threadId }, () =>
      this.out.peek(),
    );
  }

  async run(): Promise<void> {
    this.agent = await this.enterAgent(this.input.profile, this.input.modelId, this.input.model);
    const turn = startChatTurn();
    let waiting = true;
    this.firstText = () => {
      if (!waiting) return;
      waiting = false;
      turn.firstText();
      // What waited for the first words (the reply's placeholder, the journal's held writes, the
      // caller's deferred work) goes once they are on their way to the client: on PGlite, which
      // runs one statement at a time, each would hold them up.
      setImmediate(() => {
        this.startOpening();
        this.recorder?.release();
        this.afterFirstText();
      });
    };
    this.writer.write({
      type: "start",
      messageId: this.liveId,
      messageMetadata: { model: this.agent.modelId },
    });
    let end: LegEnd = "failed";
    const saving = setInterval(() => this.saver.tick(), SAVE_INTERVAL_MS);
    try {
      const started = this.input.resume ? await this.resumeRun() : await this.startRun();
      if (started === "suspended") return await this.suspend();
      let view = started;
      if (this.input.resume?.mode === "continue" && this.wantsReset(view.context)) {
        // Continuing a run that died at the threshold: reset first, as it was about to.
        const next = await this.resetBetweenSteps({
          end: "threshold",
          steps: 0,
          reading: view.context,
          usage: { inputTokens: 0, outputTokens: 0 },
        });
        if (next === "suspended") return await this.suspend();
        if (next !== "approval") view = next;
      }
      for (;;) {
        if (this.control.signal.aborted) {
          // Stopped while a reset ran (a stop never cancels one): no further leg starts.
          await this.storeMessage(await this.out.takeMessage(), "partial");
          end = "aborted";
          break;
        }
        const leg = await this.streamLeg(view);
        end = leg.end;
        await this.storeLeg(leg);
        if (!leg.handoff) this.draftAhead(leg.reading);
        if (leg.handoff) {
          view = await this.handOff(leg.handoff);
          continue;
        }
        if (leg.end !== "threshold" && !(leg.end === "approval" && this.wantsReset(leg.reading))) {
          break;
        }
        if (this.enteredByReset && this.sessionSteps <= THRASH_STEPS) {
          await this.stopForThrash(leg.reading);
          return;
        }
        const next = await this.resetBetweenSteps(leg);
        if (next === "suspended") return await this.suspend();
        if (next === "approval") {
          end = "approval";
          break;
        }
        view = next;
      }
      await this.finish(end);
    } catch (error) {
      // Keep what was streamed, marked as failed, before the stream reports the error.
      const recorded = await this.out.close().catch(() => null);
      if (recorded) await this.storeMessage(recorded, "error").catch(() => undefined);
      await this.endRun("failed", "error").catch(() => undefined);
      throw error;
    } finally {
      clearInterval(saving);
      this.stopOpening();
      this.recorder?.release();
      this.afterFirstText();
      await this.mcp.close();
    }
  }

  // ── entering the run ──

  private async startRun(): Promise<SessionView | "suspended"> {
    const { request, claimed } = this.input;
    if (!claimed) throw new Error("a new run needs the run row that claimed its request");
    this.runRow = claimed;
    this.startJournal();
    // Messages a recovering server is answering come first: this one is answered after them.
    if (!this.input.recovering) await recoveryOf(this.scope.threadId);
    const entered = await enterSession(this.scope, this.out, {
      request,
      session: this.session,
      queued: this.input.queued,
      runId: claimed.id,
      fresh: this.input.fresh,
    });
    if (entered.parked) return "suspended";
    this.session = entered.session;
    this.answering = entered.answering;
    if (this.input.fresh && !this.input.queued && request.sessionId === this.session.id) {
      this.made = [request];
    }
    this.control.entered();
    this.out.writeSession(this.session);
    const prepared = await prepareFirstCall(
      {
        scope: this.scope,
        model: this.agent.model,
        out: this.out,
        request,
        queued: this.input.queued,
        view: (session) => this.view(session),
        runId: claimed.id,
      },
      { session: this.session, view: await this.view(this.session) },
    );
    if (prepared.suspended) return "suspended";
    this.session = prepared.session;
    this.enteredByReset = prepared.reset;
    // The reply's placeholder (which gives it its seq) is stored once the first words are out,
    // not before: on PGlite, which runs one statement at a time, it would queue ahead of them
    // (see openLater). What writes to the message awaits it. The claim already placed the run
    // in its request's session; only a request that moved (a reset committed while it waited)
    // needs the run's place written again.
    const sessionId = this.session.id;
    const moved = !(
      claimed.firstSessionId === sessionId &&
      claimed.lastSessionId === sessionId &&
      claimed.sessionIds.length === 1
    );
    this.openLater(() =>
      (moved ? placeRunStart({ runId: claimed.id, sessionId }) : Promise.resolve()).then(() =>
        this.openMessage(),
      ),
    );
    return prepared.view;
  }

  private async resumeRun(): Promise<SessionView> {
    const resume = this.input.resume;
    if (!resume) throw new Error("not a resumed run");
    this.runRow = resume.run;
    this.startJournal(resume.mode ?? "approval");
    this.recorder?.approvalsAnswered(resume.approvedCallIds);
    this.stepCount = resume.run.stepCount;
    this.message = resume.message;
    this.continued = resume.run.sessionIds.indexOf(this.session.id) > 0;
    this.setMetadata(resume.message);
    this.writer.write({
      type: "message-metadata",
      messageMetadata: { ...this.metadata, status: "partial" },
    });
    if (resume.mode === "continue") {
      if (resume.message.sessionId !== this.session.id) {
        // It died after a reset committed: what follows goes into the new session.
        await this.storeMessage(
          await this.out.switchMessage({ id: crypto.randomUUID(), role: "assistant", parts: [] }),
          "complete",
        );
        this.continued = true;
        this.out.writeSession(this.session);
        await this.openMessage();
      } else {
        this.saver.open(resume.message.id, resume.message.parts);
      }
    }
    return this.view(this.session);
  }

  /** A stored assistant message in the current session for the next leg to stream into. */
  private async openMessage(): Promise<void> {
    const isFirst = this.message === null;
    const id = isFirst ? this.liveId : crypto.randomUUID();
    const stored = await appendMessageAfter({
      userId: this.scope.userId,
      threadId: this.scope.threadId,
      sessionId: this.session.id,
      // Directly under the question, or under this run's previous message.
      anchorId: this.message?.id ?? this.input.request.id,
      message: {
        id,
        role: "assistant",
        parts: [],
        status: "partial",
        runId: this.runRow?.id ?? null,
        model: this.agent.modelId,
        agent: this.agent.profile.id,
      },
    });
    this.message = stored;
    this.saver.open(stored.id);
    if (isFirst) {
      this.setMetadata(stored);
      this.writer.write({
        type: "message-metadata",
        messageMetadata: { ...this.metadata, status: "partial" },
      });
    }
    await this.writeProgress();
  }

  /**
   * Stores the first message's placeholder at the first text delta, or after OPEN_WITHIN_MS when
   * the model is slower than that (or as soon as anything needs it: see `placed`).
   */
  private openLater(open: () => Promise<void>): void {
    const timer = setTimeout(() => this.startOpening(), OPEN_WITHIN_MS);
    timer.unref?.();
    this.stopOpening = () => {
      clearTimeout(timer);
      // A first-words callback still queued must not store a placeholder after the run ended.
      this.startOpening = () => {};
    };
    this.startOpening = () => {
      this.startOpening = () => {};
      clearTimeout(timer);
      this.opening = open();
      // Awaited later; a failure here must not surface as an unhandled rejection meanwhile.
      this.opening.catch(() => undefined);
    };
  }

  private startOpening: () => void = () => {};
  /** A run that ended without needing its placeholder stores none after the end. */
  private stopOpening: () => void = () => {};

  /** The first message's placeholder, once stored (a no-op when it was stored up front). */
  private async placed(): Promise<void> {
    this.startOpening();
    if (this.opening) await this.opening;
  }

  /** Once, at the first text delta or the run's end: what the caller deferred until then. */
  private afterFirstText(): void {
    const hook = this.deferred;
    this.deferred = undefined;
    hook?.();
  }

  private setMetadata(row: Message) {
    this.metadata = {
      seq: row.seq,
      sessionId: row.sessionId,
      model: this.agent.modelId,
      agent: this.agent.ref,
      createdAt: row.createdAt.toISOString(),
    };
  }

  // ── legs ──

  private async view(session: ChatSession): Promise<SessionView> {
    const tools = this.toolsFor(session);
    // Only the run's first look at the session it made: later ones see what it stored since.
    const made = this.made && session.id === this.session.id ? this.made : undefined;
    this.made = undefined;
    const view = await viewSession(this.scope, session, {
      answering: this.answering,
      continued: this.continued,
      tools,
      toolTokens: await this.agent.toolTokens(tools),
      made,
    });
    this.out.writeContext(view.context);
    return view;
  }

  private toolsFor(session: ChatSession, guard = new LegGuard()): ToolSet {
    const { userId, threadId } = this.scope;
    return this.agent.tools({
      tools: {
        userId,
        threadId,
        sessionId: session.id,
        runId: this.runRow?.id ?? null,
        isGranted: async (tool) =>
          (await listSessionGrants({ userId, sessionId: session.id })).has(tool),
      },
      guard,
      approvedCallIds: this.input.resume?.approvedCallIds ?? new Set(),
      handoffsSoFar: () => this.runRow?.handoffCount ?? 0,
      onDecision: (decision, request) =>
        this.recorder?.handoffDecision(decision, request, this.agent.ref),
      commit: (handoff) => this.commitHandoff(session, handoff),
      mcp: this.mcp,
    });
  }

  private wantsReset(reading: ContextPart): boolean {
    if (this.resetFailed) return false;
    const { profile } = this.input;
    return (
      decideContextAction({
        utilization: reading.utilization,
        strategy: reading.strategy,
        resetThreshold: profile.resetThreshold,
        compactThreshold: profile.compactThreshold,
        // Between steps only a reset can help: compaction would summarize the run in flight.
        compactedThisTurn: true,
        resetThisTurn: false,
      }) === "reset"
    );
  }

  private async streamLeg(view: SessionView): Promise<LegResult> {
    const maxSteps = (this.runRow?.maxSteps ?? this.scope.profile.maxSteps) - this.stepCount;
    if (maxSteps <= 0) {
      return {
        end: "step_limit",
        steps: 0,
        reading: view.context,
        usage: { inputTokens: 0, outputTokens: 0 },
      };
    }
    const session = this.session;
    this.recorder?.context(view.context, session, view.messages.length);
    this.reading = view.context;
    // Approvals answered in this request belong to the agent that asked; a target gets none.
    const guard = new LegGuard(this.input.resume?.approvedCallIds, this.recorder?.tools);
    return streamLeg({
      model: this.agent.model,
      modelId: this.agent.modelId,
      view,
      guard,
      tools: { ...this.toolsFor(session, guard), ...this.input.extraTools },
      maxSteps,
      signal: this.control.signal,
      out: this.out,
      onText: this.firstText,
      wantsReset: (reading) => this.wantsReset(reading),
      // Only the plan and file list change within a session; the rest is the session's own.
      currentSystem: async () =>
        systemPromptFor(
          this.scope.profile,
          view.ctx.brief,
          session.summary,
          (await loadWorkspacePromptContext(this.scope)).text,
        ),
      onStep: async (reading, step) => {
        this.reading = reading;
        this.recorder?.release();
        this.recorder?.step(step);
        this.stepCount++;
        this.sessionSteps++;
        await this.recordProgress();
        // Between two steps: the reply so far is drafted as it stands.
        if (step.finishReason === "tool-calls") this.draftAhead(reading, this.out.peek());
      },
    });
  }

  /** Past the draft threshold the next handoff is written in the background, never awaited. */
  private draftAhead(reading: ContextPart, live: ChatMessage | null = null): void {
    const stored = this.message;
    draftAheadSoon({
      ...this.scope,
      session: this.session,
      model: this.agent.model,
      reading,
      live: live && stored ? { seq: stored.seq, message: live } : undefined,
    });
  }

  /** Stores what the leg produced in the current session's message, and the session's usage. */
  private async storeLeg(leg: LegResult): Promise<void> {
    // A stopped leg's unfinished tool calls end as stopped, in the stored and the live message.
    const message = await this.out.takeMessage(
      leg.end === "aborted" ? (current) => this.settleStopped(current) : undefined,
    );
    await this.storeMessage(message, STATUS_OF[leg.end].message);
    if (leg.steps > 0 && leg.end !== "aborted" && this.message) {
      // The reading covers every message up to and including this one.
      await recordSessionUsage({
        sessionId: this.session.id,
        inputTokens: leg.reading.inputTokens,
        coveredSeq: this.message.seq,
        tokenRatio: leg.tokenRatio,
      });
    }
  }

  private settleStopped(message: ChatMessage): ChatMessage {
    const { parts, settled } = settleStoppedCalls(message.parts);
    for (const toolCallId of settled) {
      this.out.writeToClient({ type: "tool-output-error", toolCallId, errorText: STOPPED_CALL });
    }
    return { ...message, parts: parts as ChatMessage["parts"] };
  }

  private async storeMessage(message: ChatMessage, status: MessageStatus): Promise<void> {
    await this.placed();
    const stored = this.message;
    if (!stored) return;
    await this.saver.seal(() =>
      updateMessage({
        userId: this.scope.userId,
        threadId: this.scope.threadId,
        id: stored.id,
        patch: {
          parts: message.parts,
          status,
          tokenCount: messageTokenCount(message.parts, this.agent.modelId),
        },
      }),
    );
  }

  private async recordProgress(): Promise<void> {
    await this.placed();
    await this.writeProgress();
  }

  private async writeProgress(): Promise<void> {
    if (!this.runRow || !this.message) return;
    await recordRunProgress({
      userId: this.scope.userId,
      runId: this.runRow.id,
      stepCount: this.stepCount,
      sessionId: this.session.id,
      messageId: this.message.id,
    });
  }

  // ── between sessions ──

  private async resetBetweenSteps(leg: LegResult): Promise<SessionView | "approval" | "suspended"> {
    const outcome = await resetBetweenSteps({
      scope: this.scope,
      model: this.agent.model,
      out: this.out,
      session: this.session,
      request: this.input.request,
      reading: leg.reading,
      runId: this.runRow?.id ?? null,
    });
    if (outcome === "suspended") return outcome;
    if (!outcome) {
      // The run goes on in this session, without trying again.
      this.resetFailed = true;
      await this.storeMessage(await this.out.takeMessage(), "complete");
      if (leg.end === "approval") return "approval";
      // Re-read: the session row holds the usage the leg just recorded.
      this.session = await currentSessionOr(this.scope, this.session);
      return this.view(this.session);
    }
    await this.storeMessage(
      await this.out.switchMessage({ id: crypto.randomUUID(), role: "assistant", parts: [] }),
      "complete",
    );
    this.session = outcome;
    this.sessionSteps = 0;
    this.enteredByReset = true;
    this.continued = true;
    this.out.writeSession(outcome);
    await this.openMessage();
    return this.view(outcome);
  }

  /**
   * Parks the run at a draft under review: the message keeps its steps, the run waits
   * (`awaiting_review`) and this stream ends; the draft's end resumes it (lib/runs/after-draft.ts).
   */
  private async suspend(): Promise<void> {
    await this.storeMessage(await this.out.takeMessage(), "complete");
    await this.endRun("awaiting_review", null);
    this.writer.write({
      type: "finish",
      messageMetadata: { ...this.metadata, status: "complete" },
    });
    await this.out.close();
  }

  private async stopForThrash(reading: ContextPart): Promise<void> {
    this.out.write({
      type: "data-context-reset",
      id: `reset-${this.session.id}`,
      data: thrashPart(this.session, reading, this.scope.profile.resetThreshold),
    });
    await this.storeMessage(await this.out.takeMessage(), "complete");
    await this.endRun("reset_failed", "thrash");
    this.writer.write({
      type: "finish",
      messageMetadata: { ...this.metadata, status: "complete" },
    });
    await this.out.close();
  }

  // ── agents ──

  private startJournal(resumed?: "approval" | "continue") {
    if (!this.runRow) return;
    this.recorder = new RunRecorder(
      { userId: this.scope.userId, threadId: this.scope.threadId, runId: this.runRow.id },
      this.agent.ref,
    );
    // Until the first token (or the first step's end): those writes would otherwise queue
    // ahead of the ones the first token waits for.
    this.recorder.hold(JOURNAL_HOLD_MS);
    this.recorder.started(this.agent.ref, this.agent.modelId, resumed);
  }

  private enterAgent(profile: Profile, modelId: string, model: LanguageModelV3) {
    return RunAgent.enter({
      userId: this.input.actor.id,
      threadId: this.input.threadId,
      profile,
      modelId,
      model,
      request: this.input.request,
      threadModelId: this.input.threadModelId,
    });
  }

  /**
   * Commits an accepted handoff while its tool call runs — the source's session ends, the
   * target's begins, the run counts the handoff and gives the target its own step budget — so a
   * server that dies after the tool answers resumes the run as the target.
   */
  private async commitHandoff(session: ChatSession, handoff: AcceptedHandoff): Promise<void> {
    const reading = this.reading;
    if (!reading) throw new Error("a handoff before the leg measured its context");
    const run = this.runRow
      ? {
          id: this.runRow.id,
          handoffCount: this.runRow.handoffCount + 1,
          // The step handing off is not counted yet; the target gets a budget of its own.
          maxSteps: this.stepCount + 1 + handoff.target.maxSteps,
        }
      : undefined;
    this.committed = await transferToAgent({
      scope: this.scope,
      session,
      request: this.input.request,
      handoff,
      reading,
      run,
    });
    if (this.runRow && run) {
      this.runRow = { ...this.runRow, handoffCount: run.handoffCount, maxSteps: run.maxSteps };
    }
  }

  /**
   * After the step that handed off: the reply goes on as the target — its prompt, model and
   * tools, in a new stored message in its session.
   */
  private async handOff(handoff: AcceptedHandoff): Promise<SessionView> {
    const from = this.session;
    const transfer = this.committed;
    if (!transfer) throw new Error("an accepted handoff that was not committed");
    this.committed = null;
    this.recorder?.transferred(handoff, transfer.session);
    this.out.write({
      type: "data-agent-handoff",
      id: `agent-handoff-${from.id}`,
      data: agentHandoffPart(from, transfer),
    });
    await this.storeMessage(
      await this.out.switchMessage({ id: crypto.randomUUID(), role: "assistant", parts: [] }),
      "complete",
    );
    const model =
      handoff.modelId === this.agent.modelId
        ? this.agent.model
        : this.input.languageModel(handoff.modelId);
    this.agent = await this.enterAgent(handoff.target, handoff.modelId, model);
    this.session = transfer.session;
    this.sessionSteps = 0;
    this.enteredByReset = false;
    this.resetFailed = false;
    // The target starts from the brief and the request, not from a continue line.
    this.continued = false;
    this.out.writeSession(this.session);
    await this.openMessage();
    return this.view(this.session);
  }

  // ── ending ──

  private async finish(end: LegEnd): Promise<void> {
    const status = STATUS_OF[end];
    await this.endRun(status.run, end === "failed" ? "model_failed" : null);
    // A stopped reply ends like any other (partial); only a failed one ends with its error.
    if (end !== "failed") {
      this.writer.write({
        type: "finish",
        messageMetadata: { ...this.metadata, status: status.message },
      });
    }
    await this.out.close();
  }

  private async endRun(status: Exclude<RunStatus, "running">, reason: string | null) {
    if (!this.runRow) return;
    await finishRun({
      userId: this.scope.userId,
      runId: this.runRow.id,
      status,
      failureReason: reason,
    });
    await this.recorder?.ended(status, reason, this.runRow.handoffCount);
  }
}
