// A compatible server's own context window, asked of it, is what a chat turn is measured against:
// Ollama's num_ctx (8192), not the model card's context_length (131072).
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { POST } from "@/app/api/chat/route";
import { modelWindowSource } from "@/lib/ai/registry";
import { learnServerWindow } from "@/lib/ai/server-windows";
import { guestHeaders } from "../support/auth";
import { parseSse, replyText } from "../support/chat";
import { startChatCompletionsServer } from "../support/protocol/chat-completions";
import type { ProtocolServer } from "../support/protocol/server";
import { answerTitlesAside } from "../support/provider-suite";

let server: ProtocolServer;
const saved: Record<string, string | undefined> = {};

beforeAll(async () => {
  server = await startChatCompletionsServer({
    extra: {
      "POST /api/show": () => ({
        parameters:
          'num_ctx                        8192\nstop                           "<|eot_id|>"',
        model_info: { "general.architecture": "llama", "llama.context_length": 131072 },
      }),
    },
  });
  answerTitlesAside(server);
  const env = {
    OPENAI_COMPATIBLE_BASE_URL: server.url,
    OPENAI_COMPATIBLE_MODELS: "llama3.1",
    OPENAI_COMPATIBLE_CONTEXT_WINDOW: undefined,
    BATON_CONTEXT_WINDOW: undefined,
  };
  for (const [key, value] of Object.entries(env)) {
    saved[key] = process.env[key];
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

afterAll(async () => {
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  await server?.close();
});

it("measures a turn against the window the server runs the model with", async () => {
  // What start-up does in the background (instrumentation.ts).
  await learnServerWindow("llama3.1");
  expect(modelWindowSource("compatible:llama3.1")).toBe("ollama:num_ctx");
  server.script({ text: "Measured.", usage: { input: 4096, output: 3 } });
  const headers = await guestHeaders();
  headers.set("content-type", "application/json");
  const response = await POST(
    new Request("http://localhost:3000/api/chat", {
      method: "POST",
      headers,
      body: JSON.stringify({
        id: randomUUID(),
        trigger: "submit-message",
        model: "compatible:llama3.1",
        message: { id: randomUUID(), role: "user", parts: [{ type: "text", text: "hi" }] },
      }),
    }),
  );
  const parts = parseSse(await response.text());
  expect(replyText(parts)).toBe("Measured.");
  const after = parts.filter((p) => p.type === "data-context").at(-1)?.data as
    | { contextWindow: number; utilization: number; inputTokens: number; strategy: string }
    | undefined;
  expect(after?.contextWindow).toBe(8192);
  expect(after?.utilization).toBeCloseTo((after?.inputTokens ?? 0) / 8192, 5);
  expect(after?.utilization).toBeGreaterThan(0.5);
  expect(server.refusals).toEqual([]);
});
