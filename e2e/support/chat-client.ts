// A guest talking to a spawned server over real HTTP: sign-in cookie, chat requests whose SSE
// stream is read part by part as it arrives, and the thread API. For specs that kill servers,
// where a browser page would only get in the way.
import { randomUUID } from "node:crypto";

export interface StreamPart {
  type: string;
  id?: string;
  delta?: string;
  messageId?: string;
  data?: Record<string, unknown>;
}

export interface LiveStream {
  status: number;
  /** Resolves with the first part matching `test`, or null when the stream ended without one. */
  until: (test: (part: StreamPart) => boolean) => Promise<StreamPart | null>;
  /** Every part so far, each with the time it arrived. */
  parts: { at: number; part: StreamPart }[];
  /** Reads to the end (or until the connection drops). */
  finished: Promise<void>;
}

export interface StoredMessage {
  id: string;
  role: "user" | "assistant";
  parts: { type: string; text?: string }[];
  metadata?: { seq?: number; status?: string; sessionId?: string };
}

export interface ThreadView {
  messages: StoredMessage[];
  sessions: { id: string; number: number }[];
  answering: string[];
  /** Replies streaming now: the thread API leaves their rows out until they end. */
  live?: unknown[];
}

export const textOf = (message: StoredMessage | undefined) =>
  (message?.parts ?? [])
    .filter((p) => p.type === "text")
    .map((p) => p.text ?? "")
    .join("");

export class ChatClient {
  private constructor(
    public base: string,
    private readonly cookie: string,
  ) {}

  static async guest(base: string): Promise<ChatClient> {
    const res = await fetch(`${base}/api/auth/sign-in/anonymous`, {
      method: "POST",
      headers: { origin: base, "content-type": "application/json" },
      body: "{}",
    });
    if (res.status !== 200) throw new Error(`guest sign-in: ${res.status}`);
    const cookie = res.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    return new ChatClient(base, cookie);
  }

  /** The sign-in cookies, for a browser context to act as the same guest. */
  cookiesFor(url: string): { name: string; value: string; url: string }[] {
    return this.cookie.split("; ").map((pair) => {
      const at = pair.indexOf("=");
      return { name: pair.slice(0, at), value: pair.slice(at + 1), url };
    });
  }

  /** The same guest on another server (cookies belong to the host, not the port). */
  on(base: string): ChatClient {
    return new ChatClient(base, this.cookie);
  }

  private headers(json: boolean): Record<string, string> {
    return {
      cookie: this.cookie,
      origin: this.base,
      ...(json ? { "content-type": "application/json" } : {}),
    };
  }

  async post(path: string, body: unknown): Promise<LiveStream> {
    const res = await fetch(`${this.base}${path}`, {
      method: "POST",
      headers: this.headers(true),
      body: JSON.stringify(body),
    });
    return readStream(res);
  }

  send(threadId: string, text: string, id: string = randomUUID()): Promise<LiveStream> {
    return this.post("/api/chat", {
      trigger: "submit-message",
      id: threadId,
      message: { id, role: "user", parts: [{ type: "text", text }] },
    });
  }

  continueReply(threadId: string, messageId: string): Promise<LiveStream> {
    return this.post("/api/chat", { trigger: "continue-message", id: threadId, messageId });
  }

  async thread(threadId: string): Promise<ThreadView> {
    const res = await fetch(`${this.base}/api/threads/${threadId}?limit=200`, {
      headers: this.headers(false),
    });
    if (res.status !== 200) throw new Error(`thread: ${res.status} ${await res.text()}`);
    return (await res.json()) as ThreadView;
  }

  /** Polls the thread until nothing is being answered, queued, streaming or live. */
  async waitUntilIdle(threadId: string, timeoutMs = 120_000): Promise<ThreadView> {
    const deadline = Date.now() + timeoutMs;
    let view = await this.thread(threadId);
    while (Date.now() < deadline) {
      const busy =
        view.answering.length > 0 ||
        (view.live?.length ?? 0) > 0 ||
        view.messages.some((m) => ["partial", "queued"].includes(m.metadata?.status ?? ""));
      if (!busy) return view;
      await new Promise((r) => setTimeout(r, 500));
      view = await this.thread(threadId);
    }
    throw new Error(`thread still busy: ${JSON.stringify(view.answering)}`);
  }
}

/** Reads an SSE response (a chat POST, or a resumed GET of its stream) part by part. */
export function readStream(res: Response): LiveStream {
  const parts: { at: number; part: StreamPart }[] = [];
  const waiters: { test: (p: StreamPart) => boolean; resolve: (p: StreamPart | null) => void }[] =
    [];
  let ended = false;
  const finished = (async () => {
    const body = res.body;
    if (!body) return;
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        for (let cut = buffer.indexOf("\n\n"); cut >= 0; cut = buffer.indexOf("\n\n")) {
          const event = buffer.slice(0, cut).trim();
          buffer = buffer.slice(cut + 2);
          if (!event.startsWith("data: ") || event === "data: [DONE]") continue;
          const part = JSON.parse(event.slice(6)) as StreamPart;
          parts.push({ at: Date.now(), part });
          for (const w of waiters.filter((w) => w.test(part))) {
            waiters.splice(waiters.indexOf(w), 1);
            w.resolve(part);
          }
        }
      }
    } catch {
      // The server was killed: the stream just ends.
    } finally {
      ended = true;
      for (const w of waiters.splice(0)) w.resolve(null);
    }
  })();
  return {
    status: res.status,
    parts,
    finished,
    until: (test) => {
      const seen = parts.find((p) => test(p.part));
      if (seen) return Promise.resolve(seen.part);
      if (ended) return Promise.resolve(null);
      return new Promise((resolve) => waiters.push({ test, resolve }));
    },
  };
}
