// HTTP plumbing for the benches that drive a running server: guest and password sign-in (the
// session cookie), a chat message, and reading an SSE body up to a marker or to its end.
import { randomUUID } from "node:crypto";

/** A new guest's session cookie. */
export async function guestCookie(base: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/sign-in/anonymous`, {
    method: "POST",
    headers: { origin: base, "content-type": "application/json" },
    body: "{}",
  });
  if (res.status !== 200) throw new Error(`guest sign-in: ${res.status}`);
  return cookieOf(res);
}

/** The session cookie of an existing account. */
export async function signInCookie(base: string, email: string, password: string) {
  const res = await fetch(`${base}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { origin: base, "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200) throw new Error(`sign-in: ${res.status} ${await res.text()}`);
  return cookieOf(res);
}

function cookieOf(res: Response): string {
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

/** POST /api/chat with one user message (a new thread when `threadId` is new). */
export function postChat(base: string, cookie: string, threadId: string, text: string) {
  return fetch(`${base}/api/chat`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie, origin: base },
    body: JSON.stringify({
      id: threadId,
      trigger: "submit-message",
      message: { id: randomUUID(), role: "user", parts: [{ type: "text", text }] },
    }),
  });
}

export const FIRST_TEXT_DELTA = (text: string) => text.includes('"type":"text-delta"');

/** Reads `res`'s body until `test` matches the text so far (or the end); returns the reader. */
export async function readUntil(res: Response, test: (text: string) => boolean) {
  const reader = res.body?.getReader();
  if (!reader) throw new Error(`no body (${res.status})`);
  const decoder = new TextDecoder();
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return { reader, matched: false, text };
    text += decoder.decode(value, { stream: true });
    if (test(text)) return { reader, matched: true, text };
  }
}

export async function drain(reader: ReadableStreamDefaultReader<Uint8Array>) {
  while (!(await reader.read()).done) {
    // to the end, so the reply is stored before the next sample
  }
}
