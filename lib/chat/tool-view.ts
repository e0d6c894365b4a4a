// What the chat shows of a tool call (AI SDK UI parts `tool-<name>` and `dynamic-tool`): its
// status, a one-line summary of its input, a preview of its result, and what the files panel
// and the plan checklist learn from the results streaming in. Pure: no I/O, no React.
import { getToolOrDynamicToolName, isToolUIPart } from "ai";
import { type PlanItem, planItemsSchema } from "@/core/plan-items";
import type { ChatMessage } from "./types";

type Part = ChatMessage["parts"][number];
export type ToolPart = Extract<Part, { toolCallId: string }>;

export type ToolStatus =
  | "running"
  | "awaiting_approval"
  | "approved"
  | "done"
  | "error"
  | "denied"
  | "stopped";

/** The error the server settles a call with when the user stopped the reply while it ran. */
const STOPPED_TOOL_ERROR = "Stopped by the user.";

function wasStopped(part: ToolPart): boolean {
  return part.state === "output-error" && part.errorText === STOPPED_TOOL_ERROR;
}

export function isToolPart(part: Part): part is ToolPart {
  return isToolUIPart(part);
}

export function toolNameOf(part: ToolPart): string {
  return getToolOrDynamicToolName(part);
}

function record(value: unknown): Record<string, unknown> | null {
  return value && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

function stringField(value: unknown, key: string): string | undefined {
  const field = record(value)?.[key];
  return typeof field === "string" ? field : undefined;
}

function numberField(value: unknown, key: string): number | undefined {
  const field = record(value)?.[key];
  return typeof field === "number" && Number.isFinite(field) ? field : undefined;
}

/** A built-in tool's result says `{ ok: false, error }` when the call failed. */
function toolErrorOf(part: ToolPart): string | null {
  if (part.state === "output-error") return part.errorText || "The tool failed.";
  if (part.state !== "output-available") return null;
  const output = record(part.output);
  if (output?.ok === false) return stringField(output, "error") ?? "The tool reported an error.";
  return null;
}

export function toolStatusOf(part: ToolPart): ToolStatus {
  switch (part.state) {
    case "input-streaming":
    case "input-available":
      return "running";
    case "approval-requested":
      return "awaiting_approval";
    case "approval-responded":
      return part.approval.approved ? "approved" : "denied";
    case "output-denied":
      return "denied";
    case "output-error":
      return wasStopped(part) ? "stopped" : "error";
    case "output-available":
      return toolErrorOf(part) === null ? "done" : "error";
  }
}

export const STATUS_LABELS: Record<ToolStatus, string> = {
  running: "running",
  awaiting_approval: "waiting for approval",
  approved: "approved",
  done: "done",
  error: "error",
  denied: "denied",
  stopped: "stopped",
};

const MAX_SUMMARY_CHARS = 80;

function shorten(text: string, max = MAX_SUMMARY_CHARS): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function planCounts(items: unknown): string | null {
  if (!Array.isArray(items)) return null;
  const done = items.filter((item) => record(item)?.status === "done").length;
  const active = items.find((item) => record(item)?.status === "in_progress");
  const activeId = stringField(active, "id");
  const base = `${items.length} item${items.length === 1 ? "" : "s"}, ${done} done`;
  return activeId ? `${base}, ${activeId} in progress` : base;
}

/** One line saying what the call works on: a path, a line range, a plan's counts. */
export function toolInputSummary(part: ToolPart): string {
  const name = toolNameOf(part);
  const input = part.input;
  const path = stringField(input, "path");
  switch (name) {
    case "write_file": {
      const content = stringField(input, "content");
      const size =
        content === undefined ? "" : ` · ${formatBytes(new TextEncoder().encode(content).length)}`;
      return path ? shorten(`${path}${size}`) : "";
    }
    case "read_file": {
      const start = numberField(input, "startLine");
      const end = numberField(input, "endLine");
      const range =
        start !== undefined || end !== undefined ? ` · lines ${start ?? 1}–${end ?? "end"}` : "";
      return path ? shorten(`${path}${range}`) : "";
    }
    case "edit_file":
    case "delete_file":
      return path ? shorten(path) : "";
    case "list_files": {
      const prefix = stringField(input, "prefix");
      return prefix ? shorten(`under ${prefix}`) : "all files";
    }
    case "update_plan":
      return planCounts(record(input)?.items) ?? "";
  }
  if (path) return shorten(path);
  if (input === undefined) return "";
  const first = Object.values(record(input) ?? {}).find((v) => typeof v === "string");
  if (typeof first === "string") return shorten(first);
  return shorten(JSON.stringify(input) ?? "");
}

/** Longest result body shown in a card; the full result stays in the message. */
const MAX_PREVIEW_CHARS = 4_000;

function clip(text: string): string {
  return text.length <= MAX_PREVIEW_CHARS
    ? text
    : `${text.slice(0, MAX_PREVIEW_CHARS)}\n… (${(text.length - MAX_PREVIEW_CHARS).toLocaleString("en-US")} more characters)`;
}

function pretty(value: unknown): string {
  if (typeof value === "string") return value;
  return JSON.stringify(value, null, 2) ?? String(value);
}

export interface ToolPreview {
  /** One sentence on the outcome, e.g. "Wrote version 2 (1.2 kB)". */
  summary: string;
  /** A longer body (file lines, a listing, JSON), or null. */
  body: string | null;
}

function resultPreview(name: string, output: unknown): ToolPreview {
  const out = record(output);
  if (out?.spilled === true) {
    const path = stringField(out, "path") ?? "a file";
    const bytes = numberField(out, "bytes");
    return {
      summary: `Large result saved to ${path}${bytes === undefined ? "" : ` (${formatBytes(bytes)})`}`,
      body: typeof out.preview === "string" ? clip(out.preview) : null,
    };
  }
  const version = numberField(out, "version");
  const bytes = numberField(out, "bytes");
  switch (name) {
    case "write_file":
    case "edit_file": {
      const verb = name === "edit_file" ? "Edited" : out?.created ? "Created" : "Wrote";
      const size = bytes === undefined ? "" : ` (${formatBytes(bytes)})`;
      const path = stringField(out, "path");
      const what = path ? `${verb} ${path}` : verb;
      return { summary: `${what} — version ${version ?? "?"}${size}`, body: null };
    }
    case "delete_file":
      return { summary: `Deleted ${stringField(out, "path") ?? "the file"}`, body: null };
    case "read_file": {
      const start = numberField(out, "startLine");
      const end = numberField(out, "endLine");
      const total = numberField(out, "totalLines");
      const lines = start !== undefined && end !== undefined ? `lines ${start}–${end}` : "lines";
      const hint = stringField(out, "hint");
      return {
        summary: `Read ${lines}${total === undefined ? "" : ` of ${total}`}${hint ? ` · ${hint}` : ""}`,
        body: clip(stringField(out, "content") ?? ""),
      };
    }
    case "list_files": {
      const files = Array.isArray(out?.files) ? out.files : [];
      const listing = files
        .map(
          (f) => `${stringField(f, "path") ?? "?"}  ${formatBytes(numberField(f, "bytes") ?? 0)}`,
        )
        .join("\n");
      const count = numberField(out, "count") ?? files.length;
      return {
        summary: `${count} file${count === 1 ? "" : "s"}`,
        body: listing ? clip(listing) : null,
      };
    }
    case "update_plan": {
      const items = Array.isArray(out?.items) ? out.items : [];
      const marks: Record<string, string> = { done: "[x]", in_progress: "[~]", pending: "[ ]" };
      const body = items
        .map(
          (item) =>
            `${marks[stringField(item, "status") ?? ""] ?? "[ ]"} ${stringField(item, "id") ?? ""} ${stringField(item, "task") ?? ""}`,
        )
        .join("\n");
      return { summary: `Plan updated: ${planCounts(items) ?? ""}`, body: body || null };
    }
  }
  return { summary: "Result", body: clip(pretty(output)) };
}

/** What an expanded card shows under its header. */
export function toolPreviewOf(part: ToolPart): ToolPreview {
  const name = toolNameOf(part);
  switch (part.state) {
    case "input-streaming":
      return { summary: "Preparing the call…", body: null };
    case "input-available":
      return { summary: "Running…", body: null };
    case "approval-requested":
      return { summary: "Waiting for your approval.", body: null };
    case "approval-responded":
      return part.approval.approved
        ? { summary: "Approved — running…", body: null }
        : { summary: "Denied — not run.", body: part.approval.reason ?? null };
    case "output-denied":
      return { summary: "Denied — not run.", body: part.approval.reason ?? null };
    case "output-error":
      if (wasStopped(part)) return { summary: "Stopped before it finished.", body: null };
      return { summary: "Failed.", body: clip(part.errorText ?? "") || null };
    case "output-available": {
      const error = toolErrorOf(part);
      if (error !== null) return { summary: "Failed.", body: clip(error) };
      return resultPreview(name, part.output);
    }
  }
}

/** Input fields the one-line summary already shows in full. */
const SUMMARIZED_FIELDS: ReadonlySet<string> = new Set(["path", "startLine", "endLine", "prefix"]);

/**
 * The call's input as the card shows it when expanded (a file's content as text), or null when
 * the one-line summary already says all of it.
 */
export function toolInputPreview(part: ToolPart): string | null {
  const input = part.input;
  if (input === undefined) return null;
  const fields = record(input);
  if (fields && Object.keys(fields).every((key) => SUMMARIZED_FIELDS.has(key))) return null;
  const name = toolNameOf(part);
  if (name === "write_file") {
    const content = stringField(input, "content");
    if (content !== undefined) return clip(content);
  }
  if (name === "edit_file") {
    const old = stringField(input, "old");
    const replacement = stringField(input, "new");
    if (old !== undefined && replacement !== undefined) {
      return clip(`replace:\n${old}\nwith:\n${replacement}`);
    }
  }
  return clip(pretty(input));
}

/** Decisions the approval card offers. */
export type ApprovalDecision = "approve" | "deny" | "allow_session";

/** Calls in `parts` that wait for an answer, by approval id. */
export function pendingApprovalIds(parts: readonly Part[]): string[] {
  return parts.flatMap((part) =>
    isToolPart(part) && part.state === "approval-requested" ? [part.approval.id] : [],
  );
}

const WORKSPACE_TOOLS: ReadonlySet<string> = new Set(["write_file", "edit_file", "delete_file"]);

/**
 * A count that grows with every finished call that changed the workspace (a write, edit or
 * delete, or a large result saved as a file): the files panel reloads when it changes.
 */
export function workspaceChangeCount(messages: readonly ChatMessage[]): number {
  let count = 0;
  for (const message of messages) {
    for (const part of message.parts) {
      if (!isToolPart(part) || part.state !== "output-available") continue;
      const output = record(part.output);
      if (output?.spilled === true) count++;
      else if (WORKSPACE_TOOLS.has(toolNameOf(part)) && output?.ok === true) count++;
    }
  }
  return count;
}

export interface StreamedPlan {
  items: PlanItem[];
  version: number;
}

/** The newest plan an `update_plan` result in `messages` carries (highest version), if any. */
export function latestStreamedPlan(messages: readonly ChatMessage[]): StreamedPlan | null {
  let best: StreamedPlan | null = null;
  for (const message of messages) {
    for (const part of message.parts) {
      if (!isToolPart(part) || part.state !== "output-available") continue;
      if (toolNameOf(part) !== "update_plan") continue;
      const output = record(part.output);
      const version = numberField(output, "version");
      if (output?.ok !== true || version === undefined) continue;
      const items = planItemsSchema.safeParse(output.items);
      if (!items.success) continue;
      if (!best || version > best.version) best = { items: items.data, version };
    }
  }
  return best;
}
