// The offline model's tool vocabulary: what a user message asks it to do with the workspace,
// plan and agent-handoff tools. Pure parsing; what each command does step by step is in
// ./agent.

export type ToolCommand =
  | { kind: "write"; path: string; content: string }
  | { kind: "read"; path: string; startLine?: number; endLine?: number }
  | { kind: "delete"; path: string }
  | { kind: "list" }
  | { kind: "plan"; tasks: string[] }
  | { kind: "work" }
  | { kind: "handoff"; agentId: string; objective: string }
  | { kind: "list_agents" }
  | { kind: "recall"; query: string }
  | { kind: "call"; toolName: string; input: unknown }
  | { kind: "call_invalid"; toolName: string };

export interface FoundToolCommand {
  /** Where the command starts in the text: the earliest command of a message wins. */
  index: number;
  command: ToolCommand;
}

/** Plan limits the update_plan tool enforces; staying inside them keeps the call valid. */
const MAX_PLAN_TASKS = 100;
const MAX_PLAN_TASK_CHARS = 500;

// A path is one token (no whitespace), optionally in backticks or quotes.
export const PATH_TOKEN = "(`[^`\\n]+`|\"[^\"\\n]+\"|'[^'\\n]+'|[^\\s`\"']+)";
// `write <path>: <content>`: the colon follows the path directly; the content runs to the end
// of the message, newlines included.
const WRITE = new RegExp(`\\bwrite[\\t ]+${PATH_TOKEN}[\\t ]*:([\\s\\S]*)$`, "i");
/*
 * `read <path>` and `delete <path>` must end their sentence or line (an optional `lines A-B`
 * range aside), so "read the docs and tell me" stays an ordinary message.
 */
const LINES = "(?:[\\t ]+lines?[\\t ]+(\\d+)[\\t ]*(?:-|–|to)[\\t ]*(\\d+))?";
const CLAUSE_END = "(?=[\\t ]*(?:[.!?]+(?:\\s|$)|\\n|$))";
const READ = new RegExp(`\\bread[\\t ]+${PATH_TOKEN}${LINES}${CLAUSE_END}`, "i");
const DELETE = new RegExp(`\\bdelete[\\t ]+${PATH_TOKEN}${CLAUSE_END}`, "i");
const LIST = /\blist[\t ]+(?:the[\t ]+|all[\t ]+|my[\t ]+)?files\b/i;
// `plan:` needs its colon, so "Let's plan the launch" is an ordinary message.
const PLAN = /\bplan[\t ]*:([\s\S]*)$/i;
const WORK = /\bwork[\t ]+through[\t ]+(?:the[\t ]+|my[\t ]+)?plan\b/i;
// `hand off to <slug>: <objective>`: the objective runs to the end of the message.
const HANDOFF =
  /\bhand[\t -]?off[\t ]+to[\t ]+(`[^`\n]+`|"[^"\n]+"|'[^'\n]+'|[A-Za-z0-9][\w.-]*)[\t ]*:([\s\S]*)$/i;
const LIST_AGENTS = /\blist[\t ]+(?:the[\t ]+|all[\t ]+|my[\t ]+|available[\t ]+)?agents\b/i;
// `recall <words>` starts its line, so "I recall that…" stays an ordinary message.
const RECALL = /(?:^|\n)[\t ]*recall[\t ]*:?[\t ]+(\S[^\n]*)/i;
const CALL = /\bcall[\t ]+([A-Za-z_][A-Za-z0-9_.:-]*)[\t ]+(?=[{[])/i;
const EDGE_PUNCTUATION = /[.,;:!?]+$/;

function isQuoted(raw: string): boolean {
  const first = raw[0];
  return (first === "`" || first === '"' || first === "'") && raw.length > 1 && raw.endsWith(first);
}

function unquote(raw: string): string {
  return isQuoted(raw) ? raw.slice(1, -1).trim() : raw.replace(EDGE_PUNCTUATION, "");
}

/*
 * `read`/`delete` name a file: a quoted path, or one with a `.` or `/` in it, so "don't delete
 * anything" or "read carefully" stay ordinary messages. (`write` has its colon for that.)
 */
export function filePath(raw: string): string {
  const path = unquote(raw);
  return isQuoted(raw) || /[./]/.test(path) ? path : "";
}

/** What follows `write <path>:` — the first line's leading blanks and one line break dropped. */
function writeContent(raw: string): string {
  return raw.replace(/^[\t ]*(?:\r?\n)?/, "").trimEnd();
}

/** `a; b; c` or one task per line; list markers and closing punctuation dropped. */
function splitPlanTasks(raw: string): string[] {
  return raw
    .split(/;|\r?\n/)
    .map((item) =>
      item
        .trim()
        .replace(/^(?:[-*•]|\d+[.)])\s+/, "")
        .replace(/[\s.,;!?]+$/, "")
        .trim(),
    )
    .filter((item) => item !== "")
    .slice(0, MAX_PLAN_TASKS)
    .map((item) =>
      item.length <= MAX_PLAN_TASK_CHARS ? item : `${item.slice(0, MAX_PLAN_TASK_CHARS - 1)}…`,
    );
}

/** The JSON value that starts at `text[0]`, or undefined when it does not parse. */
function leadingJson(text: string): unknown {
  // The arguments end at the last closing bracket of the message: try from there back to the
  // first one that parses, so trailing prose after the JSON is allowed.
  for (let end = text.length; end > 0; end--) {
    const c = text[end - 1];
    if (c !== "}" && c !== "]") continue;
    try {
      return JSON.parse(text.slice(0, end));
    } catch {
      // keep looking for an earlier closing bracket
    }
  }
  return undefined;
}

type Matcher = (text: string) => FoundToolCommand | null;

const MATCHERS: Matcher[] = [
  (text) => {
    const m = WRITE.exec(text);
    const path = m?.[1] ? unquote(m[1]) : "";
    return m && path
      ? { index: m.index, command: { kind: "write", path, content: writeContent(m[2] ?? "") } }
      : null;
  },
  (text) => {
    const m = READ.exec(text);
    const path = m?.[1] ? filePath(m[1]) : "";
    if (!m || !path) return null;
    const start = m[2] ? Number(m[2]) : undefined;
    const end = m[3] ? Number(m[3]) : undefined;
    const range = start !== undefined && end !== undefined && start >= 1 && end >= start;
    return {
      index: m.index,
      command: range
        ? { kind: "read", path, startLine: start, endLine: end }
        : { kind: "read", path },
    };
  },
  (text) => {
    const m = DELETE.exec(text);
    const path = m?.[1] ? filePath(m[1]) : "";
    return m && path ? { index: m.index, command: { kind: "delete", path } } : null;
  },
  (text) => {
    const m = LIST.exec(text);
    return m ? { index: m.index, command: { kind: "list" } } : null;
  },
  (text) => {
    const m = PLAN.exec(text);
    const tasks = m ? splitPlanTasks(m[1] ?? "") : [];
    return m && tasks.length > 0 ? { index: m.index, command: { kind: "plan", tasks } } : null;
  },
  (text) => {
    const m = WORK.exec(text);
    return m ? { index: m.index, command: { kind: "work" } } : null;
  },
  (text) => {
    const m = HANDOFF.exec(text);
    const agentId = m?.[1] ? unquote(m[1]) : "";
    const objective = (m?.[2] ?? "").trim();
    return m && agentId && objective
      ? { index: m.index, command: { kind: "handoff", agentId, objective } }
      : null;
  },
  (text) => {
    const m = LIST_AGENTS.exec(text);
    return m ? { index: m.index, command: { kind: "list_agents" } } : null;
  },
  (text) => {
    const m = RECALL.exec(text);
    const query = (m?.[1] ?? "").trim();
    return m && query ? { index: m.index, command: { kind: "recall", query } } : null;
  },
  (text) => {
    const m = CALL.exec(text);
    const toolName = m?.[1];
    if (!m || !toolName) return null;
    const input = leadingJson(text.slice(m.index + m[0].length));
    return {
      index: m.index,
      command:
        input === undefined
          ? { kind: "call_invalid", toolName }
          : { kind: "call", toolName, input },
    };
  },
];

/** The earliest tool command in `text`, or null when it has none. */
export function findToolCommand(text: string): FoundToolCommand | null {
  let best: FoundToolCommand | null = null;
  for (const match of MATCHERS) {
    const found = match(text);
    if (found && (best === null || found.index < best.index)) best = found;
  }
  return best;
}
