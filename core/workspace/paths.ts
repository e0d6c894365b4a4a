// Workspace path rules: relative POSIX paths, normalized, inside the thread's workspace. A bad
// path is a message the model reads (it can fix the call), never an exception for the server.
import { MAX_PATH_CHARS } from "./limits";

/** Reserved for the runtime: spilled tool results live here and the model cannot write. */
const RESERVED_DIR = ".baton";
export const TOOL_RESULTS_DIR = ".baton/results/";

export type PathResult = { ok: true; path: string } | { ok: false; error: string };

// NUL, C0 controls, DEL and C1 controls: invisible, and unsafe in a download file name.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/;

function segmentsOf(raw: string): PathResult | { ok: true; segments: string[] } {
  if (raw.length === 0) return { ok: false, error: "The path is empty." };
  if (CONTROL_CHARS.test(raw)) {
    return { ok: false, error: "The path contains a control character." };
  }
  if (raw.includes("\\")) {
    return { ok: false, error: `"${raw}" contains a backslash; use "/" between folders.` };
  }
  if (raw.startsWith("/")) {
    return {
      ok: false,
      error: `"${raw}" is absolute; workspace paths are relative, e.g. "notes/todo.md".`,
    };
  }
  const segments = raw.split("/").filter((s) => s !== "" && s !== ".");
  if (segments.includes("..")) {
    return { ok: false, error: `"${raw}" contains "..": paths cannot leave the workspace.` };
  }
  return { ok: true, segments };
}

/**
 * Normalizes a file path (`a/./b` → `a/b`, `a//b` → `a/b`, `./a` → `a`) or says why it is not
 * one. A trailing slash names a folder, which is not a file.
 */
export function normalizePath(raw: string): PathResult {
  const parsed = segmentsOf(raw);
  if (!("segments" in parsed)) return parsed;
  if (raw.endsWith("/") || parsed.segments.length === 0) {
    return { ok: false, error: `"${raw}" names a folder; give a file path such as "a/b.md".` };
  }
  const path = parsed.segments.join("/");
  if (path.length > MAX_PATH_CHARS) {
    return {
      ok: false,
      error: `The path is ${path.length} characters; at most ${MAX_PATH_CHARS} are allowed.`,
    };
  }
  return { ok: true, path };
}

/** Normalizes a list prefix; empty means everything, a trailing slash is kept. */
export function normalizePrefix(raw: string | undefined): PathResult {
  if (raw === undefined || raw === "" || raw === "." || raw === "./") return { ok: true, path: "" };
  const parsed = segmentsOf(raw);
  if (!("segments" in parsed)) return parsed;
  const joined = parsed.segments.join("/");
  const path = joined && raw.endsWith("/") ? `${joined}/` : joined;
  if (path.length > MAX_PATH_CHARS) {
    return { ok: false, error: `The prefix is longer than ${MAX_PATH_CHARS} characters.` };
  }
  return { ok: true, path };
}

export function isReservedPath(path: string): boolean {
  return path === RESERVED_DIR || path.startsWith(`${RESERVED_DIR}/`);
}

export function isToolResultPath(path: string): boolean {
  return path.startsWith(TOOL_RESULTS_DIR);
}

/** A normalized path the model may write (not under the reserved `.baton/`). */
export function writablePath(raw: string): PathResult {
  const result = normalizePath(raw);
  if (result.ok && isReservedPath(result.path)) {
    return {
      ok: false,
      error: `"${result.path}" is under ${RESERVED_DIR}/, which is reserved for tool results; choose another folder.`,
    };
  }
  return result;
}
