import { describe, expect, it } from "vitest";
import { fakeJwt, randomToken } from "@/tests/support/secret-corpus";
import { redactText } from "./engine";

describe("redactText: how each stage leaves the text around a secret", () => {
  it("keeps the name before a value and the host of a Slack webhook", () => {
    const path = `T${randomToken(8)}/B${randomToken(10)}/${randomToken(24)}`;
    expect(redactText(`hook: https://hooks.slack.com/services/${path}`).text).toBe(
      "hook: https://hooks.slack.com/services/[REDACTED:slack_webhook]",
    );
    const key = `${randomToken(86)}==`;
    expect(redactText(`AccountName=a;AccountKey=${key};EndpointSuffix=x`).text).toBe(
      "AccountName=a;AccountKey=[REDACTED:api_key];EndpointSuffix=x",
    );
  });

  it("masks a whole vendor token the vendor rule set alone knows (GitLab)", () => {
    const token = `glpat-${randomToken(20)}`;
    expect(redactText(`push with ${token} today`)).toEqual({
      text: "push with [REDACTED:api_key] today",
      kinds: ["api_key"],
    });
  });

  it("tells a bare JWT from a bearer token", () => {
    const jwt = fakeJwt();
    expect(redactText(`cookie ${jwt}`).kinds).toEqual(["jwt"]);
    expect(redactText(`Authorization: Bearer ${jwt}`)).toEqual({
      text: "Authorization: Bearer [REDACTED:bearer_token]",
      kinds: ["bearer_token"],
    });
  });

  it("masks Basic credentials only when they decode to user:password", () => {
    const credential = Buffer.from("ci:hunter22").toString("base64");
    expect(redactText(`Authorization: Basic ${credential}`).text).toBe(
      "Authorization: Basic [REDACTED:basic_auth]",
    );
    const prose = "Basic authentication with HTTPS is enough here.";
    expect(redactText(prose)).toEqual({ text: prose, kinds: [] });
  });

  it.each([
    ["the password is wrong", "the password is wrong"],
    ["my password is hunter2.", "my password is [REDACTED:password]."],
    ["mysqldump -uroot -pS3cret! db", "mysqldump -uroot -p[REDACTED:password] db"],
    ["ssh -p2222 host", "ssh -p2222 host"],
    ["app --password=$APP_PASSWORD", "app --password=$APP_PASSWORD"],
    ['app --db-password "a b c"', 'app --db-password "[REDACTED:password]"'],
  ])("%j -> %j", (input, expected) => {
    expect(redactText(input).text).toBe(expected);
  });

  it("masks the whole .npmrc token whatever its format", () => {
    const token = randomToken(40);
    expect(redactText(`//npm.example.com/:_authToken=${token}`).text).toBe(
      "//npm.example.com/:_authToken=[REDACTED:npm_token]",
    );
    // biome-ignore lint/suspicious/noTemplateCurlyInString: an npmrc variable reference.
    const reference = "//registry.npmjs.org/:_authToken=${NPM_TOKEN}";
    expect(redactText(reference)).toEqual({ text: reference, kinds: [] });
  });

  it("stays linear on long text with many near-misses", () => {
    const line = "the key is in lib/auth/token-store.ts at commit 3f2a9c0 and sk-learn is fine; ";
    const text = line.repeat(2_000);
    expect(redactText(text)).toEqual({ text, kinds: [] });
  });
});
