// The operations log: every answer of a route handler writes one JSON line (method, route
// pattern, status, duration) and every context reset one more (trigger, outcome, duration) —
// never a path's ids, a query or what someone typed — and BATON_LOG_LEVEL drops what is below it.
import { randomUUID } from "node:crypto";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { POST as chatRoute } from "@/app/api/chat/route";
import { GET as healthRoute } from "@/app/api/health/route";
import { POST as resetRoute } from "@/app/api/threads/[id]/reset/route";
import { GET as threadRoute } from "@/app/api/threads/[id]/route";
import { type DatabaseHandle, openDatabase } from "@/db/client";
import { guestHeaders } from "../support/auth";
import { parseSse, replyText } from "../support/chat";

const BASE = "http://localhost:3000";
const TYPED = "remember the password is tangerine-77";

let headers: Headers;

beforeAll(async () => {
  process.env.BATON_LOCAL_DELAY_MS = "0";
  process.env.BATON_LOCAL_HANDOFF_DELAY_MS = "0";
  headers = await guestHeaders();
});

// The database tests' own default is warn (tests/support/db-setup.ts); the server's is info.
beforeEach(() => {
  process.env.BATON_LOG_LEVEL = "info";
});

interface Written {
  stream: "stdout" | "stderr";
  text: string;
}

/** Everything the process prints while `work` runs, stream by stream, one entry per line. */
async function capture(work: () => Promise<void>): Promise<Written[]> {
  const lines: Written[] = [];
  const spies = (["stdout", "stderr"] as const).map((stream) =>
    vi.spyOn(process[stream], "write").mockImplementation((chunk) => {
      for (const text of String(chunk).split("\n")) if (text) lines.push({ stream, text });
      return true;
    }),
  );
  try {
    await work();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return lines;
}

type LogRecord = Record<string, unknown> & { event: string; level: string; stream: string };

function recordsOf(lines: Written[]): LogRecord[] {
  return lines
    .filter((line) => line.text.startsWith("{"))
    .map((line) => ({ ...(JSON.parse(line.text) as LogRecord), stream: line.stream }));
}

const requestsOf = (lines: Written[]) => recordsOf(lines).filter((r) => r.event === "request");

function withJson(extra: Headers = headers): Headers {
  const h = new Headers(extra);
  h.set("content-type", "application/json");
  return h;
}

async function chatTurn(threadId: string, text: string): Promise<string> {
  const response = await chatRoute(
    new Request(`${BASE}/api/chat`, {
      method: "POST",
      headers: withJson(),
      body: JSON.stringify({
        id: threadId,
        trigger: "submit-message",
        message: { id: randomUUID(), role: "user", parts: [{ type: "text", text }] },
      }),
    }),
  );
  expect(response.status).toBe(200);
  return replyText(parseSse(await response.text()));
}

async function waitUntilStored(threadId: string): Promise<void> {
  await expect
    .poll(
      async () => {
        const response = await threadRoute(
          new Request(`${BASE}/api/threads/${threadId}`, { headers }),
          {
            params: Promise.resolve({ id: threadId }),
          },
        );
        const view = (await response.json()) as { messages: { metadata?: { status?: string } }[] };
        return view.messages.some((m) => m.metadata?.status === "partial");
      },
      { timeout: 20_000, interval: 25 },
    )
    .toBe(false);
}

/** Another thread id nobody has: 404. */
function missingThread(): Promise<Response> {
  const id = randomUUID();
  return threadRoute(new Request(`${BASE}/api/threads/${id}`, { headers }), {
    params: Promise.resolve({ id }),
  });
}

describe("request records", () => {
  it("one JSON line per request: method, route pattern, status and duration, no ids or text", async () => {
    const threadId = randomUUID();
    let reply = "";
    const lines = await capture(async () => {
      reply = await chatTurn(threadId, TYPED);
      await waitUntilStored(threadId);
    });
    expect(reply.length).toBeGreaterThan(0);

    const records = requestsOf(lines);
    const chat = records.filter((r) => r.route === "/api/chat");
    expect(chat).toHaveLength(1);
    expect(chat[0]).toEqual({
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      level: "info",
      event: "request",
      method: "POST",
      route: "/api/chat",
      status: 200,
      duration_ms: expect.any(Number),
      stream: "stdout",
    });
    const polls = records.filter((r) => r.route === "/api/threads/[id]");
    expect(polls.length).toBeGreaterThanOrEqual(1);
    for (const poll of polls) expect(poll).toMatchObject({ method: "GET", status: 200 });
    // Every line of a request is its record (nothing else printed a request's path).
    expect(records).toHaveLength(1 + polls.length);

    const printed = lines.map((line) => line.text).join("\n");
    expect(printed).not.toContain(threadId);
    expect(printed).not.toContain("tangerine");
    expect(printed).not.toContain(reply.slice(0, 40));
  });

  it("a refused request is recorded with its status, and neither its query nor its body", async () => {
    const lines = await capture(async () => {
      const bad = await chatRoute(
        new Request(`${BASE}/api/chat?note=${encodeURIComponent(TYPED)}`, {
          method: "POST",
          headers: withJson(),
          body: JSON.stringify({ id: "not-a-uuid", trigger: "submit-message", note: TYPED }),
        }),
      );
      expect(bad.status).toBe(400);
      const missing = await missingThread();
      expect(missing.status).toBe(404);
    });
    const records = requestsOf(lines);
    expect(
      records.map(({ method, route, status, level, stream }) => ({
        method,
        route,
        status,
        level,
        stream,
      })),
    ).toEqual([
      { method: "POST", route: "/api/chat", status: 400, level: "info", stream: "stdout" },
      { method: "GET", route: "/api/threads/[id]", status: 404, level: "info", stream: "stdout" },
    ]);
    expect(lines.map((line) => line.text).join("\n")).not.toContain("tangerine");
  });

  it("an answer of 500 or more is an error, on stderr", async () => {
    const holder = globalThis as unknown as { batonDb?: DatabaseHandle };
    const own = holder.batonDb;
    const closed = openDatabase({ pgliteDir: "memory://" });
    await closed.close();
    holder.batonDb = closed;
    let status = 0;
    const lines = await capture(async () => {
      try {
        status = (await missingThread()).status;
      } finally {
        holder.batonDb = own;
      }
    });
    expect(status).toBeGreaterThanOrEqual(500);
    expect(requestsOf(lines)).toMatchObject([
      { level: "error", route: "/api/threads/[id]", status, stream: "stderr" },
    ]);
  });
});

describe("reset records", () => {
  it("a manual reset writes one line with its trigger, outcome and duration", async () => {
    const threadId = randomUUID();
    await chatTurn(threadId, "decide ship on Friday");
    await waitUntilStored(threadId);
    let status = 0;
    const lines = await capture(async () => {
      const response = await resetRoute(
        new Request(`${BASE}/api/threads/${threadId}/reset`, {
          method: "POST",
          headers: withJson(),
          body: JSON.stringify({ fromSession: 1 }),
        }),
        { params: Promise.resolve({ id: threadId }) },
      );
      status = response.status;
    });
    expect(status).toBe(201);
    const resets = recordsOf(lines).filter((r) => r.event === "context_reset");
    expect(resets).toEqual([
      {
        time: expect.any(String),
        level: "info",
        event: "context_reset",
        trigger: "manual",
        outcome: "committed",
        duration_ms: expect.any(Number),
        stream: "stdout",
      },
    ]);
    expect(requestsOf(lines)).toMatchObject([
      { method: "POST", route: "/api/threads/[id]/reset", status: 201 },
    ]);
    const printed = lines.map((line) => line.text).join("\n");
    expect(printed).not.toContain(threadId);
    expect(printed).not.toContain("Friday");
  });
});

describe("BATON_LOG_LEVEL", () => {
  const health = () =>
    healthRoute(new Request(`${BASE}/api/health`), { params: Promise.resolve({}) });

  it("info leaves out the successful probes; debug adds them", async () => {
    const quiet = await capture(async () => {
      expect((await health()).status).toBe(200);
      expect((await missingThread()).status).toBe(404);
    });
    expect(requestsOf(quiet).map((r) => r.route)).toEqual(["/api/threads/[id]"]);

    process.env.BATON_LOG_LEVEL = "debug";
    const loud = await capture(async () => {
      expect((await health()).status).toBe(200);
    });
    expect(requestsOf(loud)).toMatchObject([
      { level: "debug", route: "/api/health", status: 200, stream: "stdout" },
    ]);
  });

  it("warn drops the info lines, text and JSON alike", async () => {
    process.env.BATON_LOG_LEVEL = "warn";
    const lines = await capture(async () => {
      expect((await missingThread()).status).toBe(404);
      const threadId = randomUUID();
      await chatTurn(threadId, "hello");
      await waitUntilStored(threadId);
    });
    expect(lines.filter((line) => line.stream === "stdout")).toEqual([]);
  });
});
