// The one way app code writes to the server's output (a unit test fails on direct console calls).
// A log line must never carry what people typed or what the database was asked to store: no
// message text, no secrets, no query parameters. So an error is described by what identifies
// it — its class name, its code (SQLSTATE, errno), and for a database error the statement kind
// and table parsed from the SQL text — and never by the database's own message, which embeds
// values ("Failed query: … params: …", `invalid input syntax for type uuid: "…"`, `Key (…)=(…)`).
// Everything printed goes through redactText as a last line of defence. See docs/security.md.
// Lines are `[baton] event k=v …` text, except the records `log.record` writes for operations
// (one per request, one per reset), which are one JSON object per line for log collectors.
// BATON_LOG_LEVEL drops everything below it. See docs/operations.md.
import { serverEnv } from "@/core/env";
import { redactText } from "@/core/redact/engine";

export type LogFields = Record<string, string | number | boolean | null | undefined>;
export type LogLevel = "error" | "warn" | "info" | "debug";

const SEVERITY: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };

/** Whether BATON_LOG_LEVEL lets a line of this level through (default `info`). */
export function logsAt(level: LogLevel): boolean {
  let threshold: LogLevel = "info";
  try {
    threshold = serverEnv().BATON_LOG_LEVEL ?? "info";
  } catch {
    // A malformed environment stops the server at start-up; until then, the default.
  }
  return SEVERITY[level] >= SEVERITY[threshold];
}

const STACK_FRAMES = 8;
const MAX_MESSAGE = 200;
const MAX_FIELD = 200;
const MAX_CAUSES = 4;

type ErrorLike = Error & Record<string, unknown>;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null;

const SQLSTATE = /^[0-9A-Z]{5}$/;

/**
 * Drizzle wraps every failed statement in DrizzleQueryError (`query` + `params`); postgres.js
 * throws PostgresError and PGlite pg-protocol's DatabaseError, both with a SQLSTATE `code` and
 * a `severity`. Their messages may quote stored values, so only their codes are printed.
 */
function isDatabaseError(error: ErrorLike): boolean {
  if (typeof error.query === "string" && "params" in error) return true;
  if (error.name === "PostgresError" || error.name === "DatabaseError") return true;
  return typeof error.code === "string" && SQLSTATE.test(error.code) && "severity" in error;
}

/**
 * "insert messages", "update handoffs", "select threads": the statement's kind and its first
 * table. Only identifiers are read (values are bound parameters and never appear here).
 */
export function statementOf(sql: string): string | null {
  const text = sql.replace(/\s+/g, " ").trim();
  const write = /\b(insert into|update|delete from)\s+(?:only\s+)?"?([A-Za-z_][\w.]*)"?/i.exec(
    text,
  );
  if (write?.[1] && write[2]) {
    return `${write[1].split(" ")[0]?.toLowerCase()} ${write[2]}`;
  }
  const kind = /^\(?\s*(\w+)/.exec(text)?.[1]?.toLowerCase();
  if (!kind) return null;
  const from = /\bfrom\s+"?([A-Za-z_][\w.]*)"?/i.exec(text)?.[1];
  return from && (kind === "select" || kind === "with") ? `select ${from}` : kind;
}

/** The stack's frames only: the lines before them repeat the message, which may hold values. */
function framesOf(error: Error): string[] {
  const stack = typeof error.stack === "string" ? error.stack : "";
  return stack
    .split("\n")
    .filter((line) => /^\s+at /.test(line))
    .slice(0, STACK_FRAMES)
    .map((line) => `    ${line.trim()}`);
}

function quote(value: string, max: number): string {
  const short = value.length > max ? `${value.slice(0, max)}…` : value;
  return /^[\w.:/@+-]+$/.test(short) ? short : JSON.stringify(short);
}

/**
 * DrizzleQueryError keeps the name "Error" and PGlite's says "error" (its class name is minified
 * in the bundle): name them by what they are.
 */
function nameOf(error: ErrorLike): string {
  if (error.name && error.name.toLowerCase() !== "error") return error.name;
  if (error.message.startsWith("Failed query:")) return "DrizzleQueryError";
  if (isDatabaseError(error)) return "DatabaseError";
  return error.constructor?.name && error.constructor.name.length > 2
    ? error.constructor.name
    : "Error";
}

/** One error (no causes): `name`, `code`, database details or a short message. */
function describeOne(error: unknown, prefix: string, seen: Set<string>): string[] {
  if (!(error instanceof Error)) {
    // A thrown string or object is as likely as anything to be someone's text: its type only.
    return [`${prefix}=${error === null ? "null" : typeof error}`];
  }
  const e = error as ErrorLike;
  const parts = [`${prefix}=${quote(nameOf(e), 60)}`];
  if (typeof e.code === "string" || typeof e.code === "number") {
    parts.push(`${prefix}.code=${quote(String(e.code), 40)}`);
  }
  if (isDatabaseError(e)) {
    if (typeof e.query === "string") {
      const statement = statementOf(e.query);
      // PGlite's error repeats the query drizzle's wrapper already named.
      if (statement && !seen.has(statement)) {
        seen.add(statement);
        parts.push(`${prefix}.query=${quote(statement, 80)}`);
      }
    }
    // Schema identifiers, never values.
    for (const key of ["table", "constraint", "column"] as const) {
      const value = e[key] ?? e[`${key}_name`];
      if (typeof value === "string" && value) parts.push(`${prefix}.${key}=${quote(value, 80)}`);
    }
    return parts;
  }
  if (typeof e.syscall === "string") parts.push(`${prefix}.syscall=${quote(e.syscall, 40)}`);
  // JSON.parse echoes the text it failed on; other messages are short descriptions.
  if (!(e instanceof SyntaxError) && e.message) {
    parts.push(`${prefix}.message=${quote(e.message, MAX_MESSAGE)}`);
  }
  return parts;
}

/** The error and its causes, outermost first; the frames of the outermost error. */
function describeError(error: unknown): { summary: string; frames: string[] } {
  const parts: string[] = [];
  const seen = new Set<string>();
  let current: unknown = error;
  for (let depth = 0; depth <= MAX_CAUSES && current !== undefined; depth++) {
    parts.push(...describeOne(current, depth === 0 ? "error" : `cause${depth}`, seen));
    current = isRecord(current) && "cause" in current ? current.cause : undefined;
  }
  return { summary: parts.join(" "), frames: error instanceof Error ? framesOf(error) : [] };
}

function fieldsOf(fields: LogFields | undefined): string {
  if (!fields) return "";
  return Object.entries(fields)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}=${typeof value === "string" ? quote(value, MAX_FIELD) : value}`)
    .join(" ");
}

/** The text one call prints: a `[baton] …` line, then the error's stack frames. */
export function formatLog(
  level: LogLevel,
  event: string,
  error?: unknown,
  fields?: LogFields,
): string {
  // The level is the stream (stderr for error and warn), so the line starts with the event.
  const head = ["[baton]", event.replace(/\s+/g, " ")];
  const rest = fieldsOf(fields);
  if (rest) head.push(rest);
  let frames: string[] = [];
  if (error !== undefined) {
    const described = describeError(error);
    head.push(described.summary);
    if (level === "error") frames = described.frames;
  }
  return redactText([head.join(" "), ...frames].join("\n")).text;
}

function write(level: LogLevel, text: string): void {
  const toStdout = level === "info" || level === "debug";
  // process streams where they exist (Node): one write per call, so lines never interleave.
  const stream = toStdout ? globalThis.process?.stdout : globalThis.process?.stderr;
  if (stream && typeof stream.write === "function") {
    stream.write(`${text}\n`);
    return;
  }
  (toStdout ? console.info : console.error)(text);
}

function emit(level: LogLevel, event: string, error?: unknown, fields?: LogFields): void {
  try {
    if (logsAt(level)) write(level, formatLog(level, event, error, fields));
  } catch {
    // Logging never throws into the code that called it.
  }
}

function recordValue(value: string | number | boolean | null): string | number | boolean | null {
  if (typeof value !== "string") return value;
  return redactText(value.length > MAX_FIELD ? `${value.slice(0, MAX_FIELD)}…` : value).text;
}

/**
 * The JSON line of one record: `time`, `level` and `event` first, then the fields (undefined
 * ones left out). String values are capped and masked like the text lines' (each value on its
 * own, so the line stays valid JSON), and JSON escaping keeps a record on one line.
 */
export function formatRecord(level: LogLevel, event: string, fields: LogFields = {}): string {
  const record: LogFields = { time: new Date().toISOString(), level, event: recordValue(event) };
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined || key in record) continue;
    record[key] = recordValue(value);
  }
  return JSON.stringify(record);
}

/**
 * `log.error(event, error?, fields?)`: `event` is a fixed description written by the caller
 * ("reset failed"), fields are identifiers and counts (ids, statuses), never text people wrote.
 */
export const log = {
  error: (event: string, error?: unknown, fields?: LogFields) =>
    emit("error", event, error, fields),
  warn: (event: string, error?: unknown, fields?: LogFields) => emit("warn", event, error, fields),
  info: (event: string, error?: unknown, fields?: LogFields) => emit("info", event, error, fields),
  debug: (event: string, error?: unknown, fields?: LogFields) =>
    emit("debug", event, error, fields),
  /**
   * One JSON line for an operation (`request`, `context_reset`): `event` is a fixed name, the
   * fields are closed values (route patterns, statuses, outcomes, durations), never text.
   */
  record: (level: LogLevel, event: string, fields?: LogFields) => {
    try {
      if (logsAt(level)) write(level, formatRecord(level, event, fields));
    } catch {
      // As above.
    }
  },
};

/**
 * A library's logger (Better Auth's `logger.log`) routed through `log`: its message becomes the
 * event, cut short (libraries interpolate values into them); the first Error among its arguments
 * is described like any other; other arguments are counted, never printed.
 */
export function logFromLibrary(
  source: string,
  level: string,
  message: unknown,
  args: readonly unknown[],
): void {
  const error = args.find((arg) => arg instanceof Error);
  const others = args.length - (error === undefined ? 0 : 1);
  const text = typeof message === "string" ? message : typeof message;
  const event = `${source}: ${text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE)}…` : text}`;
  const to: LogLevel = level === "error" ? "error" : level === "warn" ? "warn" : "info";
  emit(to, event, error, others > 0 ? { omitted_args: others } : undefined);
}

const guarded = globalThis as unknown as { batonConsoleGuard?: boolean };

/**
 * The last line of defence for what libraries print themselves (Next.js reports an error thrown
 * while rendering a page with `console.error(error)`, whose drizzle message carries the query's
 * parameters): console.error and console.warn print an Error as `log` describes it — name, codes,
 * frames, never a database message — and every string through redactText. Installed once by the
 * server at start-up (instrumentation.ts).
 */
export function guardConsole(): void {
  if (guarded.batonConsoleGuard) return;
  guarded.batonConsoleGuard = true;
  for (const level of ["error", "warn"] as const) {
    const original = console[level].bind(console);
    console[level] = (...args: unknown[]) => {
      try {
        original(...args.map(sanitizeArgument));
      } catch {
        original("[baton] a log line could not be printed safely");
      }
    };
  }
}

function sanitizeArgument(value: unknown): unknown {
  if (value instanceof Error) {
    const { summary, frames } = describeError(value);
    return redactText([summary, ...frames].join("\n")).text;
  }
  if (typeof value === "string") return redactText(withholdQueries(value)).text;
  return value;
}

/** Drizzle's "Failed query: <sql>\nparams: <values>" inside text a library formatted itself. */
function withholdQueries(text: string): string {
  return text.replace(/Failed query: [^\n]*(?:\nparams: [^\n]*)?/g, "Failed query: [withheld]");
}
