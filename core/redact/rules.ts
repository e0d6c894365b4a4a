// Hand-written rules for what the vendor rule set (./vendor.ts) does not cover: secrets in prose,
// CLI flags, generic `key=value` assignments, headers, PEM blocks, connection strings, JWTs, and a
// few formats whose vendor rule misses common forms. Each keeps the text around the secret (the
// name, the quotes, the URL host) so a redacted line still reads as what it was.
import { type RedactionKind, redactionMarker } from "./kinds";
import { assignment, isMarked, isPlaceholder, looksLikeSecretWord } from "./values";

export interface Rule {
  kind: RedactionKind;
  /**
   * The rule runs only when the lowercased text contains one of these (a cheap prefilter, like
   * gitleaks' keywords): most text has none, and most rules never run on it.
   */
  keywords: readonly string[];
  pattern: RegExp;
  /** The replacement for one match (the groups, as `String.replace` passes them), or null to keep it. */
  replace: (match: (string | undefined)[]) => string | null;
}

const whole = (kind: RedactionKind) => () => redactionMarker(kind);

/** `prefix` then the marker: the name before a secret stays, only the value goes. */
const keepPrefix =
  (kind: RedactionKind) =>
  ([, prefix]: (string | undefined)[]) =>
    `${prefix}${redactionMarker(kind)}`;

const alternation = (patterns: RegExp[]) => patterns.map((r) => r.source).join("|");

/*
 * Order matters: a PEM body or a connection string can contain text the later rules would match
 * piecemeal, and specific formats must win over generic assignments (so `_authToken=npm_…` names
 * npm_token, not api_key). Every replacement is a fixed point of every rule, which makes
 * redaction idempotent.
 */
export const RULES: readonly Rule[] = [
  {
    kind: "private_key",
    keywords: ["private key"],
    // The second branch catches a key cut off before its END line (base64 runs of 20+ chars).
    pattern:
      /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|(?:(?:\s|\\n)+[A-Za-z0-9+/=]{20,})*)/g,
    replace: whole("private_key"),
  },
  {
    kind: "private_key",
    keywords: ["private"],
    // Wallet and signing keys: 32 bytes of hex after `PRIVATE_KEY=` or "private key is".
    pattern:
      /\b([\w-]*private[ _-]?key["']?[ \t]*(?:[:=]|\bis\b)[ \t]*["']?)(?:0x)?[0-9a-fA-F]{64}(?![0-9a-fA-F])/gi,
    replace: keepPrefix("private_key"),
  },
  {
    kind: "connection_string",
    keywords: ["://"],
    // Only the password goes; it ends at the last `@` before the path so `p@ss` stays whole.
    pattern: /\b([a-z][a-z0-9+.-]*:\/\/)([^\s:/@]*):([^\s/]*[^\s/@])@(?=[^\s/@])/gi,
    replace: ([, scheme, user, password]) =>
      password === undefined || isMarked(password)
        ? null
        : `${scheme}${user}:${redactionMarker("connection_string")}@`,
  },
  {
    kind: "slack_webhook",
    keywords: ["hooks.slack.com"],
    // The path is the credential: anyone holding it can post to the channel.
    pattern:
      /\b(https?:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/)[A-Za-z0-9/_+-]+/gi,
    replace: keepPrefix("slack_webhook"),
  },
  {
    kind: "api_key",
    keywords: ["accountkey", "sharedaccesskey"],
    // Azure storage and service-bus connection strings: `AccountKey=…;`.
    pattern: /\b((?:Account|SharedAccess)Key=)[A-Za-z0-9+/]{20,}={0,2}/gi,
    replace: keepPrefix("api_key"),
  },
  {
    kind: "npm_token",
    keywords: ["npm_", "_authtoken"],
    pattern: new RegExp(
      alternation([
        /\bnpm_[A-Za-z0-9]{36}(?![A-Za-z0-9_])/,
        // `.npmrc`: `//registry/:_authToken=…`, any token format, but not `${NPM_TOKEN}`.
        /(?<=_authToken=)(?!\$|\[REDACTED:)[^\s"']{8,}/,
      ]),
      "gi",
    ),
    replace: whole("npm_token"),
  },
  {
    kind: "webhook_secret",
    keywords: ["whsec_"],
    pattern: /\bwhsec_[A-Za-z0-9+/=]{20,}/g,
    replace: whole("webhook_secret"),
  },
  {
    kind: "aws_secret_key",
    keywords: ["aws"],
    // 40 base64 characters after "aws … secret … key" in config (`aws_secret_access_key =`) or
    // prose ("my aws secret key is …").
    pattern:
      /\b(aws[\w \t-]{0,24}?secret[\w \t-]{0,16}?key["']?(?:[ \t]*(?::=|=>|[:=])|[ \t]+(?:is|was))[ \t]*["']?)[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/gi,
    replace: keepPrefix("aws_secret_key"),
  },
  {
    kind: "api_key",
    keywords: [
      "sk-",
      "sk_",
      "rk_",
      "gh",
      "github_pat_",
      "akia",
      "asia",
      "xox",
      "aiza",
      "hf_",
      "sg.",
    ],
    pattern: new RegExp(
      alternation([
        /\bsk-(?=[\w-]*\d)[\w-]{20,}/, // OpenAI sk-, sk-proj-, sk-svcacct-; Anthropic sk-ant-
        /\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}/, // Stripe
        /\bgh[pousr]_[A-Za-z0-9]{30,}/, // GitHub classic tokens
        /\bgithub_pat_[A-Za-z0-9_]{20,}/, // GitHub fine-grained tokens
        /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/, // AWS access key ids
        /\bxox[abposr]-[A-Za-z0-9-]{10,}/, // Slack
        /\bAIza[0-9A-Za-z_-]{35}/, // Google
        /\bhf_[A-Za-z]{34}\b/, // Hugging Face
        /\bSG\.[\w-]{16,32}\.[\w-]{16,64}/, // SendGrid (the vendor rule misses ids with dashes)
      ]),
      "g",
    ),
    replace: whole("api_key"),
  },
  {
    kind: "api_key",
    keywords: ["key", "token", "secret"],
    // `OPENAI_API_KEY=…`, `"apiKey": "…"`, `X-Api-Key: …`; values under 8 characters are prose.
    pattern:
      /\b([\w-]*?(?:api[_-]?key|secret[_-]?(?:access[_-]?)?key|access[_-]?token|auth[_-]?token|client[_-]?secret)["']?[ \t]*(?::=|=>|===?|[:=])[ \t]*)(?:"([^"\n]{8,})"|'([^'\n]{8,})'|([^\s"',;&]{7,}[^\s"',;&)\]}]))/gi,
    replace: ([, prefix, dq, sq, bare]) => assignment(prefix, dq, sq, bare, "api_key"),
  },
  {
    kind: "bearer_token",
    keywords: ["bearer"],
    // A token has a digit (or is a JWT); that keeps "the Bearer authentication scheme" intact.
    pattern: /\b(Bearer\s+)((?=[A-Za-z0-9\-._~+/]*\d|eyJ)[A-Za-z0-9\-._~+/]{8,}=*)/gi,
    replace: keepPrefix("bearer_token"),
  },
  {
    kind: "basic_auth",
    keywords: ["basic"],
    // Only what decodes to `user:password` counts, so "Basic authentication" stays.
    pattern: /\b(Basic\s+)([A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])/gi,
    replace: ([, prefix, value]) =>
      value !== undefined && Buffer.from(value, "base64").toString("latin1").includes(":")
        ? `${prefix}${redactionMarker("basic_auth")}`
        : null,
  },
  {
    kind: "jwt",
    keywords: ["eyj"],
    pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g,
    replace: whole("jwt"),
  },
  {
    kind: "password",
    keywords: ["pass", "pwd"],
    // `password=`, `DB_PASSWORD:`, `"passwd": "…"`, `pwd=`; `passwords: 3`, `1Password:` stay.
    // A bare value never ends in a closing bracket, so `connect(password=x)` keeps its `)`.
    pattern:
      /((?:(?<!\d)password|passwd|passphrase|(?<![A-Za-z])pwd)["']?[ \t]*(?::=|=>|===?|[:=])[ \t]*)(?:"([^"\n]+)"|'([^'\n]+)'|([^\s"',;&]*[^\s"',;&)\]}]))/gi,
    replace: ([, prefix, dq, sq, bare]) => assignment(prefix, dq, sq, bare, "password"),
  },
  {
    kind: "password",
    keywords: ["--"],
    // `--password X`, `--db-password "X"`, `--passphrase=X`; a following flag is not a value.
    pattern:
      /(\s--[\w-]*(?:password|passwd|passphrase)(?:=|[ \t]+))(?:"([^"\n]+)"|'([^'\n]+)'|([^\s"'-]\S*))/gi,
    replace: ([, prefix, dq, sq, bare]) => assignment(prefix, dq, sq, bare, "password"),
  },
  {
    kind: "password",
    keywords: ["mysql", "mariadb"],
    // mysql-family clients take the password glued to -p (`mysql -uroot -pS3cret`); other tools'
    // -p is a port or a path flag, so only these commands count.
    pattern:
      /(\b(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump)\b[^\n|;&]*?\s-p)([^\s'"`-][^\s'"`]*)/gi,
    replace: ([, prefix, value]) =>
      value === undefined || isPlaceholder(value) || isMarked(value)
        ? null
        : `${prefix}${redactionMarker("password")}`,
  },
  {
    kind: "password",
    keywords: ["pass", "pin"],
    // "my password is X", "the wifi password was X", "root passphrase: X".
    pattern:
      /(\b(?:my|the|our|your|his|her|their|its|admin|root|user|db|database|wifi|account|new|old|temporary|temp)\s+(?:[\w-]+\s+)?(?:password|passphrase|passcode|pin)\s+(?:is|was|=|:)\s+)(["'`]?)([^\s"'`]+?)\2(?=[.,;:!?)]*(?:\s|$))/gi,
    replace: ([, prefix, quote, value]) =>
      value !== undefined && looksLikeSecretWord(value)
        ? `${prefix}${quote}${redactionMarker("password")}${quote}`
        : null,
  },
];
