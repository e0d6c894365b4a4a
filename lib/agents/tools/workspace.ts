// The workspace tools: list, read (line ranges), write, edit (exact replace) and delete files of
// the thread's workspace. Paths and limits are checked here and reported to the model as errors.
import "server-only";
import { tool, zodSchema } from "ai";
import { z } from "zod";
import {
  contentSizeError,
  MAX_FILE_BYTES,
  READ_MAX_BYTES,
  READ_PREVIEW_BYTES,
  utf8Bytes,
} from "@/core/workspace/limits";
import {
  isReservedPath,
  normalizePath,
  normalizePrefix,
  writablePath,
} from "@/core/workspace/paths";
import { numberedWindow, splitLines } from "@/core/workspace/text";
import { getDb } from "@/db/client";
import { deleteFile, editFile, listFiles, readFile, writeFile } from "@/db/queries/workspace";
import { asToolResult, failure, type ToolContext } from "./context";

export interface ListFilesOutput {
  ok: true;
  /** Live files under the prefix, sorted by path. */
  files: { path: string; bytes: number }[];
  count: number;
}

export interface ReadFileOutput {
  ok: true;
  path: string;
  version: number;
  totalLines: number;
  bytes: number;
  /** First and last line shown (1-based, inclusive); endLine < startLine for an empty file. */
  startLine: number;
  endLine: number;
  /** The lines, each as `N: text`. */
  content: string;
  /** Set when more lines exist than were shown: how to read on. */
  hint?: string;
}

export interface WriteFileOutput {
  ok: true;
  path: string;
  version: number;
  bytes: number;
  created: boolean;
}

export interface EditFileOutput {
  ok: true;
  path: string;
  version: number;
  bytes: number;
}

export interface DeleteFileOutput {
  ok: true;
  path: string;
  deleted: true;
}

const db = (ctx: ToolContext) => (ctx.db ?? getDb)();
const origin = (ctx: ToolContext, toolCallId: string) => ({
  sessionId: ctx.sessionId,
  runId: ctx.runId,
  toolCallId,
});

function readWindow(
  path: string,
  version: number,
  content: string,
  startLine: number | undefined,
  endLine: number | undefined,
): ReadFileOutput | ReturnType<typeof failure> {
  const lines = splitLines(content);
  const total = lines.length;
  const bytes = utf8Bytes(content);
  const base = { ok: true as const, path, version, totalLines: total, bytes };
  if (startLine === undefined && endLine === undefined) {
    const whole = numberedWindow(lines, 1, total, READ_MAX_BYTES);
    if (!whole.truncated) {
      return { ...base, startLine: 1, endLine: whole.endLine, content: whole.numbered };
    }
    const preview = numberedWindow(lines, 1, total, READ_PREVIEW_BYTES);
    return {
      ...base,
      startLine: preview.startLine,
      endLine: preview.endLine,
      content: preview.numbered,
      hint: `"${path}" has ${total} lines (${bytes} bytes); this is a preview of lines 1–${preview.endLine}. Pass startLine and endLine to read a range, e.g. {"path": "${path}", "startLine": ${preview.endLine + 1}, "endLine": ${preview.endLine + 100}}.`,
    };
  }
  const start = startLine ?? 1;
  const end = endLine ?? total;
  if (end < start) return failure(`endLine (${end}) is before startLine (${start}).`);
  if (total > 0 && start > total) {
    return failure(`"${path}" has ${total} lines; startLine ${start} is past the end.`);
  }
  const window = numberedWindow(lines, start, end, READ_MAX_BYTES);
  return {
    ...base,
    startLine: window.startLine,
    endLine: window.endLine,
    content: window.numbered,
    ...(window.truncated
      ? {
          hint: `Stopped at line ${window.endLine} to stay within ${READ_MAX_BYTES} bytes; continue with startLine ${window.endLine + 1}.`,
        }
      : {}),
  };
}

// Built once: the SDK turns each into its JSON schema on first use and keeps it.
const listFilesInput = zodSchema(
  z.object({
    prefix: z.string().optional().describe("Only paths starting with this, e.g. `notes/`"),
  }),
);

const readFileInput = zodSchema(
  z.object({
    path: z.string().describe("Relative path, e.g. `notes/todo.md`"),
    startLine: z.number().int().min(1).optional(),
    endLine: z.number().int().min(1).optional(),
  }),
);

const writeFileInput = zodSchema(
  z.object({
    path: z.string().describe("Relative path, e.g. `work/report.md`"),
    content: z.string().describe("The whole new content of the file"),
  }),
);

const editFileInput = zodSchema(
  z.object({
    path: z.string(),
    old: z.string().describe("The exact text to replace; must occur exactly once"),
    new: z.string().describe("The replacement text"),
  }),
);

const deleteFileInput = zodSchema(z.object({ path: z.string() }));

export function createWorkspaceTools(ctx: ToolContext) {
  return {
    list_files: tool({
      description:
        "List the files in this thread's workspace (paths and sizes). Optionally only those whose path starts with `prefix`, e.g. `work/`.",
      inputSchema: listFilesInput,
      execute: async ({ prefix }) =>
        asToolResult<ListFilesOutput>(async () => {
          const normalized = normalizePrefix(prefix);
          if (!normalized.ok) return failure(normalized.error);
          const rows = await listFiles(db(ctx), {
            userId: ctx.userId,
            threadId: ctx.threadId,
            prefix: normalized.path,
            // Spilled results are listed only when asked for by their folder.
            kind: isReservedPath(normalized.path.replace(/\/$/, "")) ? "all" : "file",
          });
          return {
            ok: true,
            files: rows.map((r) => ({ path: r.path, bytes: r.size })),
            count: rows.length,
          };
        }),
    }),

    read_file: tool({
      description:
        "Read a workspace file with line numbers (`N: text`). A large file without a range returns a preview and its line count; then pass startLine/endLine (1-based, inclusive) to read a range.",
      inputSchema: readFileInput,
      execute: async ({ path, startLine, endLine }) =>
        asToolResult<ReadFileOutput>(async () => {
          const normalized = normalizePath(path);
          if (!normalized.ok) return failure(normalized.error);
          const file = await readFile(db(ctx), {
            userId: ctx.userId,
            threadId: ctx.threadId,
            path: normalized.path,
          });
          if (!file) return failure(`"${normalized.path}" does not exist.`);
          return readWindow(file.path, file.version, file.content, startLine, endLine);
        }),
    }),

    write_file: tool({
      description: `Create or overwrite a workspace text file (at most ${MAX_FILE_BYTES} bytes). Paths are relative, e.g. \`work/report.md\`; \`.baton/\` is reserved.`,
      inputSchema: writeFileInput,
      execute: async ({ path, content }, { toolCallId }) =>
        asToolResult<WriteFileOutput>(async () => {
          const normalized = writablePath(path);
          if (!normalized.ok) return failure(normalized.error);
          const tooLarge = contentSizeError(content);
          if (tooLarge) return failure(tooLarge);
          const { file, created } = await writeFile(db(ctx), {
            userId: ctx.userId,
            threadId: ctx.threadId,
            path: normalized.path,
            content,
            ...origin(ctx, toolCallId),
          });
          ctx.onFileTouched?.(file.path, "write");
          return { ok: true, path: file.path, version: file.version, bytes: file.size, created };
        }),
    }),

    edit_file: tool({
      description:
        "Replace an exact piece of text in a workspace file. `old` must occur exactly once (copy it from read_file, without the line numbers); otherwise nothing changes and the error says how many times it was found.",
      inputSchema: editFileInput,
      execute: async ({ path, old, new: replacement }, { toolCallId }) =>
        asToolResult<EditFileOutput>(async () => {
          const normalized = writablePath(path);
          if (!normalized.ok) return failure(normalized.error);
          const file = await editFile(db(ctx), {
            userId: ctx.userId,
            threadId: ctx.threadId,
            path: normalized.path,
            old,
            replacement,
            maxBytes: MAX_FILE_BYTES,
            ...origin(ctx, toolCallId),
          });
          ctx.onFileTouched?.(file.path, "edit");
          return { ok: true, path: file.path, version: file.version, bytes: file.size };
        }),
    }),

    delete_file: tool({
      description:
        "Delete a workspace file (its earlier versions stay in the history). The user is asked to approve.",
      inputSchema: deleteFileInput,
      needsApproval: async () => !(await ctx.isGranted("delete_file")),
      execute: async ({ path }, { toolCallId }) =>
        asToolResult<DeleteFileOutput>(async () => {
          const normalized = writablePath(path);
          if (!normalized.ok) return failure(normalized.error);
          const file = await deleteFile(db(ctx), {
            userId: ctx.userId,
            threadId: ctx.threadId,
            path: normalized.path,
            ...origin(ctx, toolCallId),
          });
          ctx.onFileTouched?.(file.path, "delete");
          return { ok: true, path: file.path, deleted: true };
        }),
    }),
  };
}
