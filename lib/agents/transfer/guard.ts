// The tool calls of one leg (one streamText call) run one after another, in the order the model
// made them, so a transfer decides what the calls after it do: once control is transferred, the
// source agent runs no further tool — later calls of the same step read "not run" instead of
// running, and none of them asks for approval. The guard also knows which calls of the leg are
// awaiting approval (a transfer is denied while one is).
import "server-only";
import type { Tool, ToolSet } from "ai";
import type { AgentBrief } from "@/lib/chat/types";
import type { Profile } from "../profiles";

export const NOT_RUN_TRANSFERRED =
  "Not run: control was handed off to another agent, so this agent runs no further tools.";

/** An accepted transfer, carried out by the run loop once the leg's step has ended. */
export interface AcceptedTransfer {
  target: Profile;
  /** The model the target runs on (its own, or the thread's). */
  modelId: string;
  brief: AgentBrief;
  toolCallId: string;
}

type ApprovalCheck = Exclude<Tool["needsApproval"], boolean | undefined>;

/** Told of each call as it runs, in order (the run's journal). */
export interface ToolCallObserver {
  call(toolName: string, toolCallId: string, input: unknown): void;
  result(toolName: string, toolCallId: string, output: unknown): void;
  approval(toolName: string, toolCallId: string, input: unknown): void;
}

export class LegGuard {
  private queue: Promise<unknown> = Promise.resolve();
  private accepted: AcceptedTransfer | null = null;
  private readonly awaiting = new Set<string>();
  /** A host failure inside a tool (storage, serialization): the run fails once the leg ends. */
  hostError: unknown = null;

  /** `answered`: calls approved in this request; the SDK re-checks them, they are not pending. */
  constructor(
    private readonly answered: ReadonlySet<string> = new Set(),
    private readonly observer?: ToolCallObserver,
  ) {}

  get transfer(): AcceptedTransfer | null {
    return this.accepted;
  }

  /** Calls of this leg that asked for the user's approval. */
  get pendingApprovals(): number {
    return this.awaiting.size;
  }

  accept(transfer: AcceptedTransfer) {
    this.accepted = transfer;
  }

  /** Runs `body` after every call queued before it. */
  serial<T>(body: () => Promise<T>): Promise<T> {
    const next = this.queue.then(body, body);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** The tools with their calls in order and gated by the transfer. */
  wrap<T extends ToolSet>(tools: T): T {
    const out: ToolSet = {};
    for (const [name, tool] of Object.entries(tools)) out[name] = this.wrapTool(name, tool);
    return out as T;
  }

  private wrapTool(name: string, tool: Tool): Tool {
    const { execute, needsApproval } = tool;
    const wrapped: Tool = { ...tool };
    if (execute) {
      wrapped.execute = (input, options) =>
        this.serial(async () => {
          this.observer?.call(name, options.toolCallId, input);
          const output = this.accepted
            ? { ok: false, error: NOT_RUN_TRANSFERRED }
            : await execute(input, options);
          this.observer?.result(name, options.toolCallId, output);
          return output;
        });
    }
    if (needsApproval !== undefined) {
      const check: ApprovalCheck = async (input, options) => {
        // Decided after the calls before it, so a transfer earlier in the step is known.
        await this.serial(async () => undefined);
        if (this.accepted) return false;
        const needs =
          typeof needsApproval === "function" ? await needsApproval(input, options) : needsApproval;
        if (needs && !this.answered.has(options.toolCallId)) {
          this.awaiting.add(options.toolCallId);
          this.observer?.approval(name, options.toolCallId, input);
        }
        return needs;
      };
      wrapped.needsApproval = check;
    }
    return wrapped;
  }
}
