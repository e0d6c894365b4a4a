// What a run is asked to do (the request a chat turn, a Continue or recovery hands the run loop)
// and how each way a leg can end is recorded on the run and its message.
import type { LanguageModelV3 } from "@ai-sdk/provider";
import type { ToolSet } from "ai";
import type { ChatSession, Message, Run, RunStatus } from "@/db/schema";
import type { Profile } from "@/lib/agents/profiles";
import type { Actor } from "@/lib/auth/server";
import type { ContextPart, ContextResetPart, MessageStatus } from "@/lib/chat/types";
import type { LegEnd } from "./run-steps";

export interface RunRequest {
  actor: Actor;
  threadId: string;
  profile: Profile;
  modelId: string;
  model: LanguageModelV3;
  /** Resolves the model an agent the run hands off to runs on. */
  languageModel: (modelId: string) => LanguageModelV3;
  /** The thread's model: what an agent without a model of its own runs on. */
  threadModelId: string;
  /**
   * A server-side cancel (tests, recovery). Never the HTTP request's signal: a closed tab or a
   * dropped connection stops nothing; only a stop (lib/streams/stop-registry.ts) does.
   */
  signal?: AbortSignal;
  /** Tools the run offers besides the agent's own (tests give a run a tool they can watch). */
  extraTools?: ToolSet;
  /** The user message the run answers. */
  request: Message;
  /** The session the request was stored in. */
  session: ChatSession;
  /** The request was stored as queued behind another request's reset of `session`. */
  queued: boolean;
  /**
   * The run goes on in its stored message: an approval answer (these calls approved), or a
   * Continue of a reply its server was interrupted in (`continue`; the message's unfinished
   * calls already settled).
   */
  resume?: {
    run: Run;
    message: Message;
    approvedCallIds: ReadonlySet<string>;
    mode?: "approval" | "continue";
  };
  /** The run row that claimed the request (a new run; absent only when resuming). */
  claimed?: Run;
  /**
   * The request created the thread: nothing can be ahead of it (no earlier question, reset or
   * recovery), so the run skips those checks.
   */
  fresh?: boolean;
  /**
   * Called once, at the run's first text delta or its end if it has none: background work of the
   * request (a new thread's title) that must not hold up the first token.
   */
  afterFirstText?: () => void;
  /** Set for runs that recovery starts: they do not wait for the thread's recovery. */
  recovering?: boolean;
  /**
   * The run waited for a draft under review that ended so: after a cancel or expiry it goes on
   * in its session without resetting again (the user has just decided against it).
   */
  reviewEnded?: "committed" | "cancelled" | "expired";
}

/** A new session reaching the threshold within this many of its steps stops the run. */
export const THRASH_STEPS = 2;

const THRASH_REASON =
  "The run stopped: the new session's context filled up again within two steps of starting, so another reset would not help. Ask for smaller steps, or use a model with a larger context window.";

export const STATUS_OF: Record<
  LegEnd,
  { run: Exclude<RunStatus, "running">; message: MessageStatus }
> = {
  done: { run: "completed", message: "complete" },
  step_limit: { run: "step_limit", message: "complete" },
  approval: { run: "awaiting_approval", message: "complete" },
  threshold: { run: "completed", message: "complete" },
  transfer: { run: "completed", message: "complete" },
  aborted: { run: "stopped", message: "partial" },
  failed: { run: "failed", message: "error" },
};

/** The reset part that stops a run whose new session filled up again at once. */
export function thrashPart(
  session: ChatSession,
  reading: ContextPart,
  threshold: number,
): ContextResetPart {
  return {
    event: "reset_failed",
    oldSessionId: session.id,
    utilization: reading.utilization,
    threshold,
    reason: THRASH_REASON,
    code: "thrash",
  };
}
