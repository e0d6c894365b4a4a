import { randomUUID } from "node:crypto";
import { count } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { POST } from "@/app/api/chat/route";
import { GET as getThreadRoute } from "@/app/api/threads/[id]/route";
import { getDb } from "@/db/client";
import { messages } from "@/db/schema";
import { MAX_MESSAGE_CHARS } from "@/lib/chat/request";
import { guestHeaders } from "../support/auth";

let headers: Headers;

beforeAll(async () => {
  process.env.BATON_LOCAL_DELAY_MS = "0";
  headers = await guestHeaders();
});

async function messageRows(): Promise<number> {
  const [row] = await getDb().select({ n: count() }).from(messages);
  return Number(row?.n ?? 0);
}

function post(body: string, extraHeaders: Headers = headers) {
  const h = new Headers(extraHeaders);
  h.set("content-type", "application/json");
  return POST(new Request("http://localhost:3000/api/chat", { method: "POST", headers: h, body }));
}

const valid = () => ({
  id: randomUUID(),
  trigger: "submit-message",
  message: { id: randomUUID(), role: "user", parts: [{ type: "text", text: "hello" }] },
});

describe("POST /api/chat", () => {
  it("streams the reply as SSE and stores both messages", async () => {
    const body = valid();
    const response = await post(JSON.stringify(body));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const sse = await response.text();
    expect(sse).toContain('"type":"text-delta"');
    expect(sse).toContain('"type":"data-session"');
    expect(sse.trim().endsWith("data: [DONE]")).toBe(true);

    await expect
      .poll(async () => {
        const res = await getThreadRoute(
          new Request(`http://localhost:3000/api/threads/${body.id}`, { headers }),
          { params: Promise.resolve({ id: body.id }) },
        );
        const view = (await res.json()) as {
          messages: { role: string; metadata: { status: string; model: string } }[];
        };
        return view.messages.map((m) => `${m.role}:${m.metadata.status}`);
      })
      .toEqual(["user:complete", "assistant:complete"]);
  });

  const malformed: [string, string, number][] = [
    ["invalid JSON", "{not json", 400],
    ["an empty object", "{}", 400],
    ["a missing message", JSON.stringify({ ...valid(), message: undefined }), 400],
    ["a missing thread id", JSON.stringify({ ...valid(), id: undefined }), 400],
    ["a thread id of the wrong type", JSON.stringify({ ...valid(), id: 42 }), 400],
    [
      "text of the wrong type",
      JSON.stringify({
        ...valid(),
        message: { id: "m", role: "user", parts: [{ type: "text", text: 7 }] },
      }),
      400,
    ],
    [
      "an assistant-role message",
      JSON.stringify({
        ...valid(),
        message: { id: "m", role: "assistant", parts: [{ type: "text", text: "hi" }] },
      }),
      400,
    ],
    [
      "a message over the size limit",
      JSON.stringify({
        ...valid(),
        message: {
          id: "m",
          role: "user",
          parts: [{ type: "text", text: "x".repeat(MAX_MESSAGE_CHARS + 1) }],
        },
      }),
      400,
    ],
    ["a body over the byte limit", JSON.stringify({ pad: "y".repeat(300_000) }), 413],
  ];

  for (const [name, body, status] of malformed) {
    it(`rejects ${name} with ${status} and stores nothing`, async () => {
      const before = await messageRows();
      const response = await post(body);
      expect(response.status).toBe(status);
      const json = (await response.json()) as { error: { code: string; message: string } };
      expect(json.error.code).toMatch(/^(bad_request|payload_too_large):/);
      expect(json.error.message.length).toBeGreaterThan(0);
      expect(await messageRows()).toBe(before);
    });
  }

  it("lists the failing fields", async () => {
    const response = await post(JSON.stringify({ ...valid(), id: 42 }));
    const json = (await response.json()) as { error: { fields: Record<string, string[]> } };
    expect(Object.keys(json.error.fields)).toContain("id");
  });

  it("answers 401 without a session and stores nothing", async () => {
    const before = await messageRows();
    const response = await post(JSON.stringify(valid()), new Headers());
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: { code: "unauthorized:session" } });
    expect(await messageRows()).toBe(before);
  });

  it("refuses an unconfigured model", async () => {
    const before = await messageRows();
    const response = await post(JSON.stringify({ ...valid(), model: "openai:gpt-4.1" }));
    expect(response.status).toBe(400);
    expect(await messageRows()).toBe(before);
  });
});
