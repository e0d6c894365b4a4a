// Secrets as people paste them, and look-alikes that must survive redaction untouched. Unit tests
// run both through redactText; end-to-end tests write the same secrets through resets, the REST
// API and MCP and check that no raw value comes back anywhere.
//
// Secret values are assembled at run time from a seeded generator so secret scanners do not flag
// this file, and so each value is random-looking and unique (a leaked fragment is unambiguous).
import type { RedactionKind } from "@/lib/handoff/redact";

export interface SecretCase {
  /** Short label for test names. */
  name: string;
  /** The kind the marker must name. */
  kind: RedactionKind;
  /** A realistic sentence or config line containing the secret. */
  text: string;
  /** The raw secret value: it must not appear in redacted output, whole or in part. */
  secret: string;
}

export interface LookalikeCase {
  name: string;
  /** Text that must come out of redaction byte for byte the same, with no kinds reported. */
  text: string;
}

const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const LOWER = "abcdefghijklmnopqrstuvwxyz";
const DIGITS = "0123456789";
const ALNUM = UPPER + LOWER + DIGITS;
const HEX = "0123456789abcdef";
const B64 = `${ALNUM}+/`;
const B64URL = `${ALNUM}-_`;

// xorshift32: deterministic, so a failing case names the same value on every run.
let seed = 0x9e3779b9;
function next(): number {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 0x1_0000_0000;
}

/** A random string over `alphabet`; with ALNUM it always holds an upper, a lower and a digit. */
export function randomToken(length: number, alphabet = ALNUM): string {
  for (;;) {
    let out = "";
    for (let i = 0; i < length; i++) out += alphabet[Math.floor(next() * alphabet.length)];
    if (alphabet !== ALNUM || (/[A-Z]/.test(out) && /[a-z]/.test(out) && /\d/.test(out))) {
      return out;
    }
  }
}

const t = randomToken;
const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64");
const b64url = (s: string) => Buffer.from(s, "utf8").toString("base64url");

/** A JWT-shaped value (header.payload.signature); the signature is random. */
export function fakeJwt(): string {
  const header = b64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const payload = b64url(JSON.stringify({ sub: "1234567890", name: "Ada", iat: 1716239022 }));
  return `${header}.${payload}.${t(43, B64URL)}`;
}

function pemBody(): string {
  return Array.from({ length: 4 }, () => t(64, B64)).join("\n");
}

// Values reused by their case below; kept apart where a case needs the value twice.
const awsDocSecret = ["wJalrXUtnFEMI", "K7MDENG", "bPxRfiCYEXAMPLEKEY"].join("/");
const awsSecret = t(40, `${ALNUM}/+`);
const slackHook = [
  "https://hooks.slack.com/services",
  `T${t(8, UPPER + DIGITS)}`,
  `B${t(10, UPPER + DIGITS)}`,
  t(24),
].join("/");
const jwt = fakeJwt();
const basicCredential = b64(`deploy:${t(14)}`);
const cliPassword = `Pw${t(10)}`;
const mysqlPassword = `Ms${t(9)}`;
const prosePassword = `Tr0ub4dor-${t(6)}`;
const prosePassword2 = `c0rrect-${t(8)}`;
const pem = `-----BEGIN RSA PRIVATE KEY-----\n${pemBody()}\n-----END RSA PRIVATE KEY-----`;
const gcpPem = `-----BEGIN PRIVATE KEY-----\\n${t(64, B64)}\\n${t(64, B64)}\\n-----END PRIVATE KEY-----\\n`;

export const SECRET_CASES: SecretCase[] = [
  // The twelve kinds issue 10 reports as getting through verbatim.
  {
    name: "AWS secret access key in prose",
    kind: "aws_secret_key",
    text: `my aws secret key is ${awsDocSecret}`,
    secret: awsDocSecret,
  },
  {
    name: "Slack incoming webhook URL",
    kind: "slack_webhook",
    text: `Post alerts to ${slackHook} when the deploy fails.`,
    secret: slackHook.slice("https://hooks.slack.com/services/".length),
  },
  ((s) => ({
    name: "Stripe webhook signing secret",
    kind: "webhook_secret" as const,
    text: `STRIPE_WEBHOOK_SECRET is ${s} (from the dashboard)`,
    secret: s,
  }))(`whsec_${t(32)}`),
  {
    name: "bare JWT",
    kind: "jwt",
    text: `The session cookie was ${jwt}; it expires at noon.`,
    secret: jwt,
  },
  {
    name: "HTTP Basic authorization header",
    kind: "basic_auth",
    text: `curl -H "Authorization: Basic ${basicCredential}" https://ci.example.com/api`,
    secret: basicCredential,
  },
  {
    name: "CLI --password flag",
    kind: "password",
    text: `pg_dump --host db.internal --username admin --password ${cliPassword} app > dump.sql`,
    secret: cliPassword,
  },
  {
    name: "mysql -p flag",
    kind: "password",
    text: `mysql -u root -p${mysqlPassword} -h 127.0.0.1 shop`,
    secret: mysqlPassword,
  },
  {
    name: "password in prose (my password is)",
    kind: "password",
    text: `Log in as admin, my password is ${prosePassword} for now.`,
    secret: prosePassword,
  },
  {
    name: "password in prose (the password is)",
    kind: "password",
    text: `The staging box is up and the password is ${prosePassword2}.`,
    secret: prosePassword2,
  },
  ((s) => ({
    name: "npm access token",
    kind: "npm_token" as const,
    text: `Publish with NODE_AUTH_TOKEN set to ${s} in CI.`,
    secret: s,
  }))(`npm_${t(36)}`),
  ((s) => ({
    name: "SendGrid API key",
    kind: "api_key" as const,
    text: `Mail goes out through SendGrid with ${s} as the key.`,
    secret: s,
  }))(`SG.${t(22, B64URL)}.${t(43, B64URL)}`),
  ((s) => ({
    name: "Azure storage connection string AccountKey",
    kind: "api_key" as const,
    text: `DefaultEndpointsProtocol=https;AccountName=baton;AccountKey=${s};EndpointSuffix=core.windows.net`,
    secret: s,
  }))(`${t(86, B64)}==`),
  ((s) => ({
    name: "hex PRIVATE_KEY assignment",
    kind: "private_key" as const,
    text: `PRIVATE_KEY=0x${s}`,
    secret: s,
  }))(t(64, HEX)),

  // Vendor formats.
  ((s) => ({
    name: "AWS access key id",
    kind: "api_key" as const,
    text: `[default]\naws_access_key_id = ${s}\nregion = eu-west-1`,
    secret: s,
  }))(`AKIA${t(16, UPPER + DIGITS)}`),
  {
    name: "AWS secret access key in credentials file",
    kind: "aws_secret_key",
    text: `aws_secret_access_key = ${awsSecret}`,
    secret: awsSecret,
  },
  ((s) => ({
    name: "OpenAI project key",
    kind: "api_key" as const,
    text: `export OPENAI_API_KEY="${s}"`,
    secret: s,
  }))(`sk-proj-${t(48)}`),
  ((s) => ({
    name: "Anthropic API key",
    kind: "api_key" as const,
    text: `I rotated the key; the new one is ${s}`,
    secret: s,
  }))(`sk-ant-api03-${t(93, B64URL)}AA`),
  ((s) => ({
    name: "GitHub classic token",
    kind: "api_key" as const,
    text: `git clone with token ${s} worked`,
    secret: s,
  }))(`ghp_${t(36)}`),
  ((s) => ({
    name: "GitHub fine-grained token",
    kind: "api_key" as const,
    text: `GH_TOKEN=${s}`,
    secret: s,
  }))(`github_pat_11${t(20)}_${t(59)}`),
  ((s) => ({
    name: "GitLab personal access token",
    kind: "api_key" as const,
    text: `The runner uses ${s} to push tags.`,
    secret: s,
  }))(`glpat-${t(20)}`),
  ((s) => ({
    name: "Stripe live secret key",
    kind: "api_key" as const,
    text: `stripe.api_key = "${s}"`,
    secret: s,
  }))(`sk_live_${t(24)}`),
  ((s) => ({
    name: "Slack bot token",
    kind: "api_key" as const,
    text: `SLACK_BOT_TOKEN: ${s}`,
    secret: s,
  }))(`xoxb-${t(12, DIGITS)}-${t(13, DIGITS)}-${t(24)}`),
  ((s) => ({
    name: "Google API key",
    kind: "api_key" as const,
    text: `maps loaded with key ${s}`,
    secret: s,
  }))(`AIza${t(35, B64URL)}`),
  ((s) => ({
    name: "Hugging Face token",
    kind: "api_key" as const,
    text: `huggingface-cli login --token ${s}`,
    secret: s,
  }))(`hf_${t(34, UPPER + LOWER)}`),
  ((s) => ({
    name: "Shopify admin token",
    kind: "api_key" as const,
    text: `The shop's admin API token is ${s}`,
    secret: s,
  }))(`shpat_${t(32, HEX)}`),
  ((s) => ({
    name: "OAuth client secret in JSON",
    kind: "api_key" as const,
    text: `{"client_id": "baton-web", "client_secret": "${s}"}`,
    secret: s,
  }))(t(32, B64URL)),
  ((s) => ({
    name: "X-Api-Key header",
    kind: "api_key" as const,
    text: `curl -H 'X-Api-Key: ${s}' https://api.example.com/v1/jobs`,
    secret: s,
  }))(t(32)),
  {
    name: "PEM RSA private key",
    kind: "private_key",
    text: `Here is the deploy key:\n${pem}\nuse it once.`,
    secret: pem.split("\n")[1] ?? "",
  },
  {
    name: "service-account JSON private_key",
    kind: "private_key",
    text: `{"type": "service_account", "private_key": "${gcpPem}"}`,
    secret: gcpPem.split("\\n")[1] ?? "",
  },
  ((s) => ({
    name: "Postgres URL with password",
    kind: "connection_string" as const,
    text: `DATABASE_URL=postgres://app:${s}@db.internal:5432/app`,
    secret: s,
  }))(t(16)),
  ((s) => ({
    name: "HTTPS URL with user and password",
    kind: "connection_string" as const,
    text: `git remote add origin https://ci-bot:${s}@git.example.com/org/repo.git`,
    secret: s,
  }))(t(18)),
  ((s) => ({
    name: "Bearer token header",
    kind: "bearer_token" as const,
    text: `Authorization: Bearer ${s}`,
    secret: s,
  }))(t(40, B64URL)),
  ((s) => ({
    name: "password in a .env file",
    kind: "password" as const,
    text: `DB_USER=app\nDB_PASSWORD=${s}\nDB_HOST=db`,
    secret: s,
  }))(t(14)),
  ((s) => ({
    name: ".npmrc auth token",
    kind: "npm_token" as const,
    text: `//registry.npmjs.org/:_authToken=${s}`,
    secret: s,
  }))(`npm_${t(36)}`),
  ((s) => ({
    name: "random deploy token next to a keyword (high entropy)",
    kind: "high_entropy" as const,
    text: `The deploy token for the staging cluster: ${s}`,
    secret: s,
  }))(t(32)),
  ((s) => ({
    name: "random secret in YAML (high entropy)",
    kind: "high_entropy" as const,
    text: `session:\n  secret: ${s}\n  ttl: 3600`,
    secret: s,
  }))(t(40, B64)),
  ((s) => ({
    name: "credential handed over in prose (high entropy)",
    kind: "high_entropy" as const,
    text: `Use this credential for the webhook relay ${s} until Friday.`,
    secret: s,
  }))(t(28)),
];

const commitSha = t(40, HEX);
const contentId = t(64, HEX);

export const LOOKALIKE_CASES: LookalikeCase[] = [
  { name: "git commit SHA", text: `Reverted commit ${commitSha} after the key rotation failed.` },
  { name: "short SHA", text: `Fixed in ${commitSha.slice(0, 7)} (see the token refresh change).` },
  {
    name: "UUID",
    text: `Thread 3f6c1a2e-9b7d-4c1e-8a2f-5d6e7f809a1b has the secret rotation plan.`,
  },
  {
    name: "handoff content id",
    text: `Accepted handoff key billing-42 with content id ${contentId}.`,
  },
  {
    name: "base64 data: image URI",
    text: `<img alt="logo" src="data:image/png;base64,${t(120, B64)}==">`,
  },
  {
    name: "long camelCase and snake_case identifiers",
    text: "Call getSecretAccessKeyFromVaultConfiguration2 then refresh_api_token_before_expiry_v2.",
  },
  { name: "file paths", text: "Edited lib/auth/token-store.ts and /etc/ssl/private/README.md" },
  {
    name: "URL without credentials",
    text: "Docs at https://api.example.com/v1/keys?page=2#secret-rotation",
  },
  {
    name: "npm package names",
    text: "Installed @secretlint/secretlint-rule-preset-recommend and jsonwebtoken",
  },
  {
    name: "semver",
    text: "Bumped next from 16.0.0-canary.12 to 16.1.3 and the key package to 2.0.0-rc.1",
  },
  { name: "hex colors", text: "The secret badge uses #ff00aa on #1e1e2e with a #0f0 outline." },
  { name: "password type annotation", text: "interface Login { user: string; password: string }" },
  { name: "environment variable reference", text: "PGPASSWORD=$DB_PASSWORD psql -h db -U app" },
  {
    name: "Bearer scheme in prose",
    text: "The Bearer authentication scheme is described in RFC 6750.",
  },
  {
    name: "markdown with keywords",
    text: "## Secrets\n\n- **Token** rotation: weekly\n- `api_key` lives in the vault\n\n> Never paste a password here.",
  },
  {
    name: "password prose without a value",
    text: "Reset your password from the settings page; the password is required.",
  },
  {
    name: "CLI password prompt flag",
    text: "Run `psql -U app -W` or `mysql -u root -p` and type it when asked.",
  },
  {
    name: "token count",
    text: "The context window is 128000 tokens and the secret sauce is caching.",
  },
  {
    name: "base64 that is not near a keyword",
    text: `Fixture payload ${t(48, B64)} decodes to a PNG header.`,
  },
  {
    name: "placeholder values",
    text: "API_KEY=<your-key-here> and SECRET_KEY=changeme and token: ********",
  },
];
