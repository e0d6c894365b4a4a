// The one error a tool-server connection fails with: a message written for the user (shown in
// settings as the server's last error, and read by the model as a tool error). It never carries
// the server's token.

export class ToolServerError extends Error {
  /** The address policy refused the target (not a network failure). */
  readonly refused: boolean;

  constructor(message: string) {
    super(message);
    this.name = "ToolServerError";
    this.refused = message.startsWith("refused:");
  }
}

/** `text` with every occurrence of `secret` masked: remote error text may echo what was sent. */
export function withoutSecret(text: string, secret: string | null | undefined): string {
  if (!secret) return text;
  return text.split(secret).join("[token]");
}
