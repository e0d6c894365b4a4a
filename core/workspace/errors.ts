// Domain errors of the workspace data layer. Their messages are written for the model: the
// tools return them as `{ ok: false, error }`, and the API maps them to HTTP codes above.

export type WorkspaceErrorCode =
  | "thread_not_found"
  | "file_not_found"
  | "too_many_files"
  | "too_large"
  | "match_count"
  | "invalid_path"
  | "invalid_input";

export class WorkspaceError extends Error {
  readonly code: WorkspaceErrorCode;

  constructor(code: WorkspaceErrorCode, message: string) {
    super(message);
    this.name = "WorkspaceError";
    this.code = code;
  }
}
