// Markdown rendering of a HandoffArtifact (what the next session and humans read) and its exact
// inverse: parseHandoffMarkdown(renderHandoffMarkdown(a)) deep-equals a for every valid artifact.
import { type HandoffArtifact, handoffArtifactSchema, type RemainingTask } from "./artifact";

/*
 * Escaping rule. Every value sits on one line (list items, the goal) or in one block (the three
 * prose sections). A value is written verbatim unless the parser could misread it; then it is
 * written as a JSON string literal (`"…"`, JSON.stringify) on a single line.
 * - Single-line values are quoted when they are empty, start or end with whitespace, contain a
 *   control character (newline, CR, tab, …) or start with `"`. Markup such as `- x`, `# x`,
 *   `[x] x` or backticks stays verbatim: the parser strips exactly one list marker / checkbox.
 * - Prose blocks are verbatim, newlines included, unless they start or end with whitespace,
 *   contain a control character other than `\n`, start with `"`, or have a line starting with
 *   `#` (it could close the section). An empty block is no lines at all.
 * - A task renders `- [ ] <id>: <task>` when the id is a plain token (letters, digits, `._-`);
 *   any other id renders the whole task as a JSON object: `- [ ] {"id":"…","task":"…"}`.
 * - A file path renders in backticks unless it is empty, has a backtick, control character or
 *   edge whitespace; then it is a JSON string literal.
 * - An empty list renders the bare line `_none_` (never an item: items always start with `- `).
 */

const HANDOFF_TITLE_PREFIX = "# Handoff:";
const NONE_MARKER = "_none_";

type TextField = "state_summary" | "last_completed_step" | "next_step";
type ItemListField =
  | "completed_work"
  | "in_progress"
  | "key_decisions"
  | "confirmed_facts"
  | "unknowns"
  | "must_preserve"
  | "needs_authorization";

type Section =
  | { kind: "text"; field: TextField; heading: string }
  | { kind: "items"; field: ItemListField; heading: string; checkbox: "" | "[x] " | "[ ] " }
  | { kind: "tasks"; field: "remaining_tasks"; heading: string }
  | { kind: "files"; field: "files_modified"; heading: string };

/** Section order and headings of the rendered document. */
export const HANDOFF_SECTIONS: readonly Section[] = [
  { kind: "text", field: "state_summary", heading: "State summary" },
  { kind: "items", field: "completed_work", heading: "Completed work", checkbox: "[x] " },
  { kind: "items", field: "in_progress", heading: "In progress", checkbox: "[ ] " },
  { kind: "tasks", field: "remaining_tasks", heading: "Remaining tasks" },
  { kind: "items", field: "key_decisions", heading: "Key decisions", checkbox: "" },
  { kind: "items", field: "confirmed_facts", heading: "Confirmed facts", checkbox: "" },
  { kind: "items", field: "unknowns", heading: "Unknowns", checkbox: "" },
  { kind: "items", field: "must_preserve", heading: "Must preserve", checkbox: "" },
  { kind: "files", field: "files_modified", heading: "Files modified" },
  { kind: "text", field: "last_completed_step", heading: "Last completed step" },
  { kind: "text", field: "next_step", heading: "Next step" },
  { kind: "items", field: "needs_authorization", heading: "Needs authorization", checkbox: "" },
];

export class HandoffMarkdownError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(`handoff markdown, line ${line}: ${message}`);
    this.name = "HandoffMarkdownError";
  }
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we detect.
const CONTROL = /[\u0000-\u001f\u007f]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we detect.
const CONTROL_EXCEPT_LF = /[\u0000-\u0009\u000b-\u001f\u007f]/;
const EDGE_WHITESPACE = /^\s|\s$/;
const PLAIN_TASK_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const PLAIN_TASK_LINE = /^([A-Za-z0-9][A-Za-z0-9._-]*): (.*)$/s;

function needsQuoting(value: string): boolean {
  return (
    value === "" || EDGE_WHITESPACE.test(value) || CONTROL.test(value) || value.startsWith('"')
  );
}

function encodeInline(value: string): string {
  return needsQuoting(value) ? JSON.stringify(value) : value;
}

function decodeInline(raw: string): string {
  if (raw.startsWith('"')) {
    const decoded = tryJson(raw);
    // A human may write a quoted phrase that is not a JSON string: keep it as written.
    if (typeof decoded === "string") return decoded;
  }
  return raw;
}

function tryJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

function encodeBlock(value: string): string[] {
  if (value === "") return [];
  const verbatim =
    !EDGE_WHITESPACE.test(value) &&
    !CONTROL_EXCEPT_LF.test(value) &&
    !value.startsWith('"') &&
    !/^\s*#/m.test(value);
  return verbatim ? value.split("\n") : [JSON.stringify(value)];
}

function decodeBlock(lines: string[]): string {
  let start = 0;
  let end = lines.length;
  while (start < end && lines[start]?.trim() === "") start++;
  while (end > start && lines[end - 1]?.trim() === "") end--;
  const body = lines.slice(start, end);
  if (body.length === 1) return decodeInline(body[0] ?? "");
  return body.join("\n");
}

function encodeTask(task: RemainingTask): string {
  if (PLAIN_TASK_ID.test(task.id)) return `${task.id}: ${encodeInline(task.task)}`;
  return JSON.stringify({ id: task.id, task: task.task });
}

function decodeTask(raw: string, line: number): RemainingTask {
  if (raw.startsWith("{")) {
    const decoded = tryJson(raw) as Partial<RemainingTask> | undefined;
    if (decoded && typeof decoded.id === "string" && typeof decoded.task === "string") {
      return { id: decoded.id, task: decoded.task };
    }
  }
  const match = PLAIN_TASK_LINE.exec(raw);
  if (!match) throw new HandoffMarkdownError(`expected "<id>: <task>", got ${raw}`, line);
  return { id: match[1] ?? "", task: decodeInline(match[2] ?? "") };
}

function encodeFile(path: string): string {
  const verbatim = path !== "" && !path.includes("`") && !needsQuoting(path);
  return verbatim ? `\`${path}\`` : JSON.stringify(path);
}

function decodeFile(raw: string): string {
  if (raw.length >= 2 && raw.startsWith("`") && raw.endsWith("`")) return raw.slice(1, -1);
  return decodeInline(raw);
}

function renderList(items: readonly string[]): string[] {
  return items.length === 0 ? [NONE_MARKER] : items.map((item) => `- ${item}`);
}

function isEmptySection(artifact: HandoffArtifact, section: Section): boolean {
  const value = artifact[section.field];
  return value.length === 0;
}

/**
 * `omitEmpty`: leave out sections with nothing in them (the brief a session's prompt carries,
 * where every token counts); parseHandoffMarkdown reads a missing section as empty, so the
 * compact form parses to the same artifact.
 */
export function renderHandoffMarkdown(
  artifact: HandoffArtifact,
  { omitEmpty = false }: { omitEmpty?: boolean } = {},
): string {
  const lines = [`${HANDOFF_TITLE_PREFIX} ${encodeInline(artifact.goal)}`];
  for (const section of HANDOFF_SECTIONS) {
    if (omitEmpty && isEmptySection(artifact, section)) continue;
    lines.push(`## ${section.heading}`);
    switch (section.kind) {
      case "text":
        lines.push(...encodeBlock(artifact[section.field]));
        break;
      case "items":
        lines.push(
          ...renderList(artifact[section.field].map((i) => section.checkbox + encodeInline(i))),
        );
        break;
      case "tasks":
        lines.push(...renderList(artifact.remaining_tasks.map((t) => `[ ] ${encodeTask(t)}`)));
        break;
      case "files":
        lines.push(...renderList(artifact.files_modified.map(encodeFile)));
        break;
    }
  }
  return `${lines.join("\n")}\n`;
}

const CHECKBOX = /^\[[ xX]\] /;

/**
 * Parses what renderHandoffMarkdown writes. Tolerates what editors and humans add (CRLF, blank
 * lines between sections, `*` bullets, sections in another order or missing); throws
 * HandoffMarkdownError on anything it cannot place rather than dropping it.
 */
export function parseHandoffMarkdown(md: string): HandoffArtifact {
  const lines = md.replace(/\r\n/g, "\n").split("\n");
  let index = lines.findIndex((l) => l.trim() !== "");
  const title = lines[index];
  if (index === -1 || title === undefined || !title.startsWith(HANDOFF_TITLE_PREFIX)) {
    throw new HandoffMarkdownError(`expected "${HANDOFF_TITLE_PREFIX} <goal>"`, index + 1);
  }
  const out: Record<string, unknown> = {
    goal: decodeInline(title.slice(HANDOFF_TITLE_PREFIX.length).replace(/^ /, "").trimEnd()),
    state_summary: "",
  };
  index++;

  const seen = new Set<string>();
  while (index < lines.length) {
    const line = lines[index] ?? "";
    if (line.trim() === "") {
      index++;
      continue;
    }
    if (!line.startsWith("## ")) throw new HandoffMarkdownError("expected a ## heading", index + 1);
    const heading = line.slice(3).trim();
    const section = HANDOFF_SECTIONS.find((s) => s.heading.toLowerCase() === heading.toLowerCase());
    if (!section) throw new HandoffMarkdownError(`unknown section "${heading}"`, index + 1);
    if (seen.has(section.field)) {
      throw new HandoffMarkdownError(`duplicate section "${heading}"`, index + 1);
    }
    seen.add(section.field);

    const bodyStart = index + 1;
    let bodyEnd = bodyStart;
    while (bodyEnd < lines.length && !(lines[bodyEnd] ?? "").startsWith("## ")) bodyEnd++;
    const body = lines.slice(bodyStart, bodyEnd);
    index = bodyEnd;

    if (section.kind === "text") {
      out[section.field] = decodeBlock(body);
      continue;
    }
    const items: { raw: string; line: number }[] = [];
    body.forEach((rawLine, offset) => {
      const trimmed = rawLine.trimEnd();
      const lineNo = bodyStart + offset + 1;
      if (trimmed === "" || trimmed === NONE_MARKER) return;
      if (!/^[-*] /.test(trimmed)) throw new HandoffMarkdownError("expected a list item", lineNo);
      items.push({ raw: trimmed.slice(2), line: lineNo });
    });
    switch (section.kind) {
      case "items":
        out[section.field] = items.map(({ raw }) =>
          decodeInline(section.checkbox ? raw.replace(CHECKBOX, "") : raw),
        );
        break;
      case "tasks":
        out.remaining_tasks = items.map(({ raw, line }) =>
          decodeTask(raw.replace(CHECKBOX, ""), line),
        );
        break;
      case "files":
        out.files_modified = items.map(({ raw }) => decodeFile(raw));
        break;
    }
  }
  return handoffArtifactSchema.parse(out);
}
