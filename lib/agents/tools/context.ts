// What every built-in tool is given, the two kinds a tool can be, and the result shapes tools
// return. A tool never throws for something the model did wrong: it returns `{ ok: false }`.

import { WorkspaceError } from "@/core/workspace/errors";
import type { Executor } from "@/db/executor";
import type { WorkspaceFileOp } from "@/db/schema";

export interface ToolContext {
  userId: string;
  threadId: string;
  /** The session the run is in now; recorded on every file version (files_modified). */
  sessionId: string;
  runId: string | null;
  /** "Allow for this session": true when the session holds a grant for this tool. */
  isGranted(tool: string): Promise<boolean>;
  /** Called after a file is written, edited or deleted (tool results excluded). */
  onFileTouched?(path: string, op: WorkspaceFileOp): void;
  /** Results larger than this are spilled to `.baton/results/` (default 8 KiB). */
  spillThresholdBytes?: number;
  /** The database to use; defaults to the process-wide client. */
  db?: () => Executor;
}

/**
 * readOnly: no approval — the tool only reads, or changes nothing but the thread's own versioned
 * workspace and plan (every such change is kept in the history). effectful: destroys data or
 * reaches outside the thread; the run asks the user first (AI SDK `needsApproval`).
 */
export type ToolKind = "readOnly" | "effectful";

export interface ToolFailure {
  ok: false;
  error: string;
}

export function failure(error: string): ToolFailure {
  return { ok: false, error };
}

/** Runs a tool body, turning the data layer's domain errors into results the model reads. */
export async function asToolResult<T>(
  body: () => Promise<T | ToolFailure>,
): Promise<T | ToolFailure> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof WorkspaceError) return failure(error.message);
    throw error;
  }
}
