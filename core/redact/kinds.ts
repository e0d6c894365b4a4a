// The kinds of secret redaction names, and the marker that replaces each (docs/security.md).

const REDACTION_KINDS = [
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

export const redactionMarker = (kind: RedactionKind) => `[REDACTED:${kind}]`;

export const MARKER_PREFIX = "[REDACTED:";

/** Every marker in a text, so later stages can leave them (and what they already hid) alone. */
export const MARKER_PATTERN = /\[REDACTED:[a-z_]+\]/g;
