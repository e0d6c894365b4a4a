import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { emptyArtifact, handoffArtifactSchema } from "./artifact";
import { redactArtifact, redactText } from "./redact";

// Fake secrets are assembled at run time so secret scanners do not flag this file.
const rnd = (n: number) => "aB3dE5fG7h".repeat(10).slice(0, n);
const secrets = {
  openai: `sk-${rnd(48)}`,
  openaiProject: `sk-proj-${rnd(40)}_${rnd(20)}`,
  anthropic: `sk-ant-api03-${rnd(60)}-${rnd(10)}AA`,
  github: `ghp_${rnd(36)}`,
  githubFine: `github_pat_11${rnd(20)}_${rnd(40)}`,
  aws: `AKIA${"IOSFODNN7EXAMPLE"}`,
  slack: `xoxb-1234567890-${rnd(24)}`,
  jwt: `eyJhbGciOiJIUzI1NiJ9.${rnd(30)}.${rnd(20)}`,
};

function expectMasked(input: string, secret: string, kind: string) {
  const { text, kinds } = redactText(input);
  expect(text).not.toContain(secret);
  expect(text).toContain(`[REDACTED:${kind}]`);
  expect(kinds).toContain(kind);
  return text;
}

describe("redactText: API keys", () => {
  it.each(Object.entries(secrets).filter(([name]) => name !== "jwt"))(
    "masks a %s key in prose",
    (_name, key) => {
      expect(expectMasked(`use ${key} for the demo`, key, "api_key")).toBe(
        "use [REDACTED:api_key] for the demo",
      );
    },
  );

  it("masks generic key assignments and keeps the name", () => {
    expect(redactText("OPENAI_API_KEY=abcdef123456").text).toBe(
      "OPENAI_API_KEY=[REDACTED:api_key]",
    );
    expect(redactText('{"apiKey": "abcdef123456"}').text).toBe('{"apiKey": "[REDACTED:api_key]"}');
    expect(redactText("apikey: Zx9vQ2mPl0").text).toBe("apikey: [REDACTED:api_key]");
    expect(redactText("X-Api-Key: 0123456789abcdef").text).toBe("X-Api-Key: [REDACTED:api_key]");
    expect(redactText("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG").text).toBe(
      "aws_secret_access_key = [REDACTED:api_key]",
    );
  });

  it("reports a key once when a specific format sits in a generic assignment", () => {
    expect(redactText(`ANTHROPIC_API_KEY=${secrets.anthropic}`)).toEqual({
      text: "ANTHROPIC_API_KEY=[REDACTED:api_key]",
      kinds: ["api_key"],
    });
  });
});

describe("redactText: bearer tokens and passwords", () => {
  it("masks the token after Bearer, keeping the header", () => {
    expect(expectMasked(`Authorization: Bearer ${secrets.jwt}`, secrets.jwt, "bearer_token")).toBe(
      "Authorization: Bearer [REDACTED:bearer_token]",
    );
    expectMasked("curl -H 'authorization: bearer abc123def456'", "abc123def456", "bearer_token");
  });

  it.each([
    ["password=hunter2", "password=[REDACTED:password]"],
    ["password: hunter2", "password: [REDACTED:password]"],
    ["DB_PASSWORD=s3cr3t!", "DB_PASSWORD=[REDACTED:password]"],
    ['{"password":"correct horse battery"}', '{"password":"[REDACTED:password]"}'],
    ["pwd=abc; user=bob", "pwd=[REDACTED:password]; user=bob"],
    ["passwd: 'x y z'", "passwd: '[REDACTED:password]'"],
    ["Server=db;User Id=sa;Password=P@ss;", "Server=db;User Id=sa;Password=[REDACTED:password];"],
    ["/login?user=a&password=pw1&next=/", "/login?user=a&password=[REDACTED:password]&next=/"],
    ['password := "go"', 'password := "[REDACTED:password]"'],
    ["connect(password=abc)", "connect(password=[REDACTED:password])"],
  ])("masks %s", (input, expected) => {
    expect(redactText(input)).toEqual({ text: expected, kinds: ["password"] });
  });
});

describe("redactText: connection strings", () => {
  it.each([
    ["postgres://app:s3cret@db.internal:5432/app", "postgres://app:"],
    ["postgresql://app:s3cret@localhost/app?sslmode=require", "postgresql://app:"],
    ["mysql://root:s3cret@127.0.0.1:3306/shop", "mysql://root:"],
    ["mongodb+srv://admin:s3cret@cluster0.abcde.mongodb.net/test", "mongodb+srv://admin:"],
    ["redis://:s3cret@cache:6379/0", "redis://:"],
    ["amqp://guest:s3cret@rabbit:5672/vhost", "amqp://guest:"],
  ])("masks only the password of %s", (url, kept) => {
    const host = url.slice(url.indexOf("@"));
    expect(redactText(`DATABASE_URL=${url}`)).toEqual({
      text: `DATABASE_URL=${kept}[REDACTED:connection_string]${host}`,
      kinds: ["connection_string"],
    });
  });

  it("keeps a password containing @ whole", () => {
    expect(redactText("postgres://u:p@ss@host/db").text).toBe(
      "postgres://u:[REDACTED:connection_string]@host/db",
    );
  });
});

describe("redactText: private keys", () => {
  const body = Array.from({ length: 5 }, () => rnd(64)).join("\n");

  it("masks a whole PEM block, header to footer", () => {
    const pem = `-----BEGIN RSA PRIVATE KEY-----\n${body}\n-----END RSA PRIVATE KEY-----`;
    expect(redactText(`key:\n${pem}\ndone`)).toEqual({
      text: "key:\n[REDACTED:private_key]\ndone",
      kinds: ["private_key"],
    });
    const openssh = `-----BEGIN OPENSSH PRIVATE KEY-----\\n${rnd(70)}\\n-----END OPENSSH PRIVATE KEY-----`;
    expect(redactText(openssh).text).toBe("[REDACTED:private_key]");
  });

  it("masks a key cut off before its END line", () => {
    const { text } = redactText(`-----BEGIN PRIVATE KEY-----\n${body}\nthen the build failed`);
    expect(text).toBe("[REDACTED:private_key]\nthen the build failed");
  });

  it("leaves public keys and certificates alone", () => {
    const cert = `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----`;
    expect(redactText(cert)).toEqual({ text: cert, kinds: [] });
  });
});

describe("redactText: ordinary text", () => {
  it.each([
    "Reset your password from the settings page.",
    "The password field is required; passwords: 3 attempts max.",
    "Connect with postgres://localhost/app or postgres://db.internal:5432/app",
    "Skip the sk-learn step; ask about the risk-free plan and task-based skills.",
    "The Bearer authentication scheme is described in RFC 6750.",
    "Store it in process.env: password: string, api_key: string",
    "PGPASSWORD=$DB_PASSWORD psql -h db",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell variable reference, not a template.
    "password=${POSTGRES_PASSWORD}",
    "Saved in 1Password: the team vault",
    "https://example.com:8443/path and ssh://git@github.com/org/repo.git",
    "Use `api_key` from the config; the apiKey option is optional.",
    "",
    "日本語のテキスト 🧪 — nothing secret here",
  ])("leaves %j unchanged", (input) => {
    expect(redactText(input)).toEqual({ text: input, kinds: [] });
  });
});

describe("redactText: idempotence", () => {
  const fragments = [
    ...Object.values(secrets),
    "password=hunter2",
    "Bearer abc123def456",
    "(password=abc)",
    "postgres://u:p@ss@h/db",
    "api_key: 0123456789",
    "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----",
    "-----BEGIN EC PRIVATE KEY-----",
    "password",
    ":",
    "=",
    "@",
    " ",
    "\n",
    '"',
    "plain words",
  ];

  it("masks a token that a mask next to it exposes, in the same call", () => {
    // Found by the property below: the second token is masked first, and then the first one
    // ends at a word boundary.
    const token = "ghp_aB3dE5fG7haB3dE5fG7haB3dE5fG7haB3dE5";
    const once = redactText(`0${token}${token}`);
    expect(once.text).not.toContain("ghp_");
    expect(once.kinds).toEqual(["api_key"]);
    expect(redactText(once.text)).toEqual({ text: once.text, kinds: [] });
  });

  it("changes nothing on a second pass and reports nothing new (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constantFrom(...fragments), fc.string({ maxLength: 6 })), {
          maxLength: 10,
        }),
        (parts) => {
          const once = redactText(parts.join(""));
          expect(redactText(once.text)).toEqual({ text: once.text, kinds: [] });
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe("redactArtifact", () => {
  const artifact = handoffArtifactSchema.parse({
    goal: "Deploy the app",
    state_summary: `Deployed with ${secrets.github}`,
    confirmed_facts: ["DB is Postgres", "Port is 5432", "postgres://app:pw9@db/app"],
    remaining_tasks: [{ id: "t1", task: "rotate password=hunter2 and Bearer abc123def456" }],
    must_preserve: [`keep ${secrets.openai}`],
  });

  it("masks every string field and reports kind and path", () => {
    const { artifact: out, redactions } = redactArtifact(artifact);
    // Artifact field order, then rule order within a field.
    expect(redactions).toEqual([
      { kind: "api_key", field: "state_summary" },
      { kind: "bearer_token", field: "remaining_tasks[0].task" },
      { kind: "password", field: "remaining_tasks[0].task" },
      { kind: "connection_string", field: "confirmed_facts[2]" },
      { kind: "api_key", field: "must_preserve[0]" },
    ]);
    expect(out.confirmed_facts).toEqual([
      "DB is Postgres",
      "Port is 5432",
      "postgres://app:[REDACTED:connection_string]@db/app",
    ]);
    expect(out.remaining_tasks).toEqual([
      { id: "t1", task: "rotate password=[REDACTED:password] and Bearer [REDACTED:bearer_token]" },
    ]);
  });

  it("never carries a secret in the output or the report", () => {
    const result = JSON.stringify(redactArtifact(artifact));
    for (const secret of [secrets.github, secrets.openai, "hunter2", "abc123def456", "pw9"]) {
      expect(result).not.toContain(secret);
    }
  });

  it("does not mutate its input and is idempotent", () => {
    const before = structuredClone(artifact);
    const once = redactArtifact(artifact);
    expect(artifact).toEqual(before);
    expect(redactArtifact(once.artifact)).toEqual({ artifact: once.artifact, redactions: [] });
  });

  it("returns a clean artifact untouched", () => {
    const clean = emptyArtifact("goal", "summary");
    expect(redactArtifact(clean)).toEqual({ artifact: clean, redactions: [] });
  });
});
