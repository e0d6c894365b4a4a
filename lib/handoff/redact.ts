// Secret masking for handoffs (docs/handoffs.md): replaces secrets with `[REDACTED:<kind>]` and
// reports which kind was found in which field, never the secret itself.
import type { HandoffArtifact } from "./artifact";

export const REDACTION_KINDS = [
  "private_key",
  "connection_string",
  "api_key",
  "bearer_token",
  "password",
  "aws_secret_key",
  "slack_webhook",
  "webhook_secret",
  "jwt",
  "basic_auth",
  "npm_token",
  "high_entropy",
] as const;
export type RedactionKind = (typeof REDACTION_KINDS)[number];

export interface Redaction {
  kind: RedactionKind;
  /** Path into the artifact, e.g. `confirmed_facts[2]` or `remaining_tasks[0].task`. */
  field: string;
}

export const redactionMarker = (kind: RedactionKind) => `[REDACTED:${kind}]`;

const MARKER_PREFIX = "[REDACTED:";

/*
 * Values after `password=` / `api_key:` that are references or placeholders, not secrets: masking
 * them would mangle code and docs (`password: string`, `PGPASSWORD=$DB_PASSWORD`) for no gain.
 */
const REFERENCE =
  /^(?:\[REDACTED:.*|\$\{?[A-Z_][A-Z0-9_]*\}?|%[A-Z_][A-Z0-9_]*%|<[^>]*>|(?:process\.)?env\.[A-Z_][A-Z0-9_]*|os\.environ\S*)$/;
const PLACEHOLDER =
  /^(?:\*+|x+|\.{3}|…|string|str|number|boolean|bool|null|nil|none|undefined|true|false|text|varchar|required|optional|redacted|hidden)$/i;

type Rule = { kind: RedactionKind; pattern: RegExp; replace: (match: string[]) => string | null };

const whole = (kind: RedactionKind) => () => redactionMarker(kind);

/*
 * Order matters: a PEM body or a connection string can contain text the later rules would match
 * piecemeal, and specific key formats must win over the generic `api_key=` assignment. Every
 * replacement is a fixed point of every rule, which makes redaction idempotent.
 */
const RULES: Rule[] = [
  {
    kind: "private_key",
    // The second branch catches a key cut off before its END line (base64 runs of 20+ chars).
    pattern:
      /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|(?:(?:\s|\\n)+[A-Za-z0-9+/=]{20,})*)/g,
    replace: whole("private_key"),
  },
  {
    kind: "connection_string",
    // Only the password goes; it ends at the last `@` before the path so `p@ss` stays whole.
    pattern: /\b([a-z][a-z0-9+.-]*:\/\/)([^\s:/@]*):([^\s/]*[^\s/@])@(?=[^\s/@])/gi,
    replace: ([, scheme, user, password]) =>
      password?.startsWith(MARKER_PREFIX)
        ? null
        : `${scheme}${user}:${redactionMarker("connection_string")}@`,
  },
  {
    kind: "api_key",
    pattern: new RegExp(
      [
        /\bsk-(?=[\w-]*\d)[\w-]{20,}/, // OpenAI sk-, sk-proj-, sk-svcacct-; Anthropic sk-ant-
        /\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}/, // Stripe
        /\bgh[pousr]_[A-Za-z0-9]{30,}/, // GitHub classic tokens
        /\bgithub_pat_[A-Za-z0-9_]{20,}/, // GitHub fine-grained tokens
        /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/, // AWS access key ids
        /\bxox[abposr]-[A-Za-z0-9-]{10,}/, // Slack
        /\bAIza[0-9A-Za-z_-]{35}/, // Google
      ]
        .map((r) => r.source)
        .join("|"),
      "g",
    ),
    replace: whole("api_key"),
  },
  {
    kind: "api_key",
    // `OPENAI_API_KEY=…`, `"apiKey": "…"`, `X-Api-Key: …`; values under 8 characters are prose.
    pattern:
      /\b([\w-]*?(?:api[_-]?key|secret[_-]?(?:access[_-]?)?key|access[_-]?token|auth[_-]?token|client[_-]?secret)["']?[ \t]*(?::=|=>|===?|[:=])[ \t]*)(?:"([^"\n]{8,})"|'([^'\n]{8,})'|([^\s"',;&]{7,}[^\s"',;&)\]}]))/gi,
    replace: ([, prefix, dq, sq, bare]) => assignment(prefix, dq, sq, bare, "api_key"),
  },
  {
    kind: "bearer_token",
    // A token has a digit (or is a JWT); that keeps "the Bearer authentication scheme" intact.
    pattern: /\b(Bearer\s+)((?=[A-Za-z0-9\-._~+/]*\d|eyJ)[A-Za-z0-9\-._~+/]{8,}=*)/gi,
    replace: ([, prefix]) => `${prefix}${redactionMarker("bearer_token")}`,
  },
  {
    kind: "password",
    // `password=`, `DB_PASSWORD:`, `"passwd": "…"`, `pwd=`; `passwords: 3`, `1Password:` stay.
    // A bare value never ends in a closing bracket, so `connect(password=x)` keeps its `)`.
    pattern:
      /((?:(?<!\d)password|passwd|passphrase|(?<![A-Za-z])pwd)["']?[ \t]*(?::=|=>|===?|[:=])[ \t]*)(?:"([^"\n]+)"|'([^'\n]+)'|([^\s"',;&]*[^\s"',;&)\]}]))/gi,
    replace: ([, prefix, dq, sq, bare]) => assignment(prefix, dq, sq, bare, "password"),
  },
];

function assignment(
  prefix: string | undefined,
  doubleQuoted: string | undefined,
  singleQuoted: string | undefined,
  bare: string | undefined,
  kind: RedactionKind,
): string | null {
  const value = doubleQuoted ?? singleQuoted ?? bare ?? "";
  if (REFERENCE.test(value) || PLACEHOLDER.test(value)) return null;
  const quote = doubleQuoted !== undefined ? '"' : singleQuoted !== undefined ? "'" : "";
  return `${prefix}${quote}${redactionMarker(kind)}${quote}`;
}

/** Masks every secret in `text`; `kinds` lists each kind found once, in rule order. */
export function redactText(text: string): { text: string; kinds: RedactionKind[] } {
  const kinds: RedactionKind[] = [];
  let out = text;
  for (const rule of RULES) {
    out = out.replace(rule.pattern, (...args: unknown[]) => {
      const match = args.slice(0, -2).map((a) => (typeof a === "string" ? a : undefined));
      // Named-group objects are absent here, so the last two arguments are offset and input.
      const replacement = rule.replace(match as string[]);
      if (replacement === null) return args[0] as string;
      if (!kinds.includes(rule.kind)) kinds.push(rule.kind);
      return replacement;
    });
  }
  return { text: out, kinds };
}

/** Redacts every string field of the artifact, task ids included; the input is not mutated. */
export function redactArtifact(artifact: HandoffArtifact): {
  artifact: HandoffArtifact;
  redactions: Redaction[];
} {
  const redactions: Redaction[] = [];
  const field = (path: string, value: string): string => {
    const { text, kinds } = redactText(value);
    for (const kind of kinds) redactions.push({ kind, field: path });
    return text;
  };
  const list = (name: string, items: readonly string[]) =>
    items.map((item, i) => field(`${name}[${i}]`, item));

  const redacted: HandoffArtifact = {
    goal: field("goal", artifact.goal),
    state_summary: field("state_summary", artifact.state_summary),
    completed_work: list("completed_work", artifact.completed_work),
    in_progress: list("in_progress", artifact.in_progress),
    remaining_tasks: artifact.remaining_tasks.map((task, i) => ({
      id: field(`remaining_tasks[${i}].id`, task.id),
      task: field(`remaining_tasks[${i}].task`, task.task),
    })),
    key_decisions: list("key_decisions", artifact.key_decisions),
    confirmed_facts: list("confirmed_facts", artifact.confirmed_facts),
    unknowns: list("unknowns", artifact.unknowns),
    must_preserve: list("must_preserve", artifact.must_preserve),
    files_modified: list("files_modified", artifact.files_modified),
    last_completed_step: field("last_completed_step", artifact.last_completed_step),
    next_step: field("next_step", artifact.next_step),
    needs_authorization: list("needs_authorization", artifact.needs_authorization),
  };
  return { artifact: redacted, redactions };
}
