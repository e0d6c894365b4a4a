import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { parseEnv } from "@/core/env";
import { modelWindowSource, resolveModelInfo } from "./registry";
import {
  askServerWindow,
  knownServerWindow,
  learnServerWindow,
  numCtxOf,
  OLLAMA_DEFAULT_CONTEXT,
} from "./server-windows";

type Routes = Record<string, (body: unknown) => unknown>;

const servers: Server[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** A server answering `METHOD /path` routes with JSON, anything else 404; it counts requests. */
async function shapedServer(routes: Routes) {
  const seen: string[] = [];
  const server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString();
    const route = `${req.method} ${req.url}`;
    seen.push(route);
    const answer = routes[route];
    if (!answer) {
      res.writeHead(404, { "content-type": "application/json" });
      res.end('{"error":"not found"}');
      return;
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(answer(text ? JSON.parse(text) : undefined)));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { baseURL: `http://127.0.0.1:${port}/v1`, seen };
}

const ollamaShow = (parameters: string | undefined) => (body: unknown) => ({
  modelfile: "FROM llama3.1",
  ...(parameters === undefined ? {} : { parameters }),
  details: { family: "llama" },
  // The most the model supports, not what the server runs it with.
  model_info: { "general.architecture": "llama", "llama.context_length": 131072 },
  asked: body,
});

describe("askServerWindow", () => {
  it("takes Ollama's num_ctx, not the model card's context_length", async () => {
    const { baseURL } = await shapedServer({
      "POST /api/show": ollamaShow(
        'num_ctx                        8192\nstop                           "<|eot_id|>"',
      ),
    });
    expect(await askServerWindow(baseURL, "llama3.1", {})).toEqual({
      contextWindow: 8192,
      source: "ollama:num_ctx",
    });
  });

  it("takes a loaded Ollama model's context_length from /api/ps without num_ctx", async () => {
    const { baseURL } = await shapedServer({
      "POST /api/show": ollamaShow(undefined),
      "GET /api/ps": () => ({
        models: [
          { name: "other:1b", model: "other:1b", context_length: 2048 },
          { name: "llama3.1", model: "llama3.1", context_length: 32768 },
        ],
      }),
    });
    expect(await askServerWindow(baseURL, "llama3.1", {})).toEqual({
      contextWindow: 32768,
      source: "ollama:ps",
    });
  });

  it("falls back to OLLAMA_CONTEXT_LENGTH, then to Ollama's default", async () => {
    const { baseURL } = await shapedServer({
      "POST /api/show": ollamaShow("temperature 0.7"),
      "GET /api/ps": () => ({ models: [] }),
    });
    const env = parseEnv({ OLLAMA_CONTEXT_LENGTH: "16384" });
    expect(await askServerWindow(baseURL, "llama3.1", env)).toEqual({
      contextWindow: 16384,
      source: "env:OLLAMA_CONTEXT_LENGTH",
    });
    expect(await askServerWindow(baseURL, "llama3.1", {})).toEqual({
      contextWindow: OLLAMA_DEFAULT_CONTEXT,
      source: "ollama:default",
    });
  });

  it("takes vLLM's max_model_len for the model", async () => {
    const { baseURL } = await shapedServer({
      "GET /v1/models": () => ({
        object: "list",
        data: [
          { id: "other", object: "model", max_model_len: 4096 },
          { id: "qwen3-8b", object: "model", max_model_len: 40960 },
        ],
      }),
    });
    expect(await askServerWindow(baseURL, "qwen3-8b", {})).toEqual({
      contextWindow: 40960,
      source: "vllm:max_model_len",
    });
  });

  it("takes llama.cpp's n_ctx from /props", async () => {
    const { baseURL } = await shapedServer({
      "GET /v1/models": () => ({
        object: "list",
        data: [{ id: "model.gguf", meta: { n_ctx_train: 131072 } }],
      }),
      "GET /props": () => ({ default_generation_settings: { n_ctx: 12288 }, total_slots: 1 }),
    });
    expect(await askServerWindow(baseURL, "model.gguf", {})).toEqual({
      contextWindow: 12288,
      source: "llamacpp:n_ctx",
    });
  });

  it("answers null for a server that says nothing", async () => {
    const { baseURL } = await shapedServer({});
    expect(await askServerWindow(baseURL, "m", {})).toBeNull();
  });

  it("reads num_ctx from Ollama's parameter lines only", () => {
    expect(numCtxOf("num_ctx 4096")).toBe(4096);
    expect(numCtxOf("num_predict 128\nnum_ctx 0")).toBeUndefined();
    expect(numCtxOf("num_ctx_extra 99")).toBeUndefined();
    expect(numCtxOf(undefined)).toBeUndefined();
  });
});

describe("the registry's window for a compatible model", () => {
  it("uses what the server said once it answered, asking only once", async () => {
    const { baseURL, seen } = await shapedServer({
      "POST /api/show": ollamaShow("num_ctx 8192"),
    });
    const env = parseEnv({
      OPENAI_COMPATIBLE_BASE_URL: baseURL,
      OPENAI_COMPATIBLE_MODELS: "llama3.1",
    });
    // The first look does not wait for the server: the fallback answers meanwhile.
    expect(resolveModelInfo("compatible:llama3.1", env)).toEqual({
      contextWindow: 128_000,
      defaultStrategy: "compact",
    });
    await learnServerWindow("llama3.1", env);
    await learnServerWindow("llama3.1", env);
    expect(resolveModelInfo("compatible:llama3.1", env)).toEqual({
      contextWindow: 8192,
      defaultStrategy: "reset",
    });
    expect(modelWindowSource("compatible:llama3.1", env)).toBe("ollama:num_ctx");
    expect(seen.filter((r) => r === "POST /api/show")).toHaveLength(1);
  });

  it("asks a server that said nothing again, but not at once", async () => {
    const { baseURL, seen } = await shapedServer({});
    const env = parseEnv({ OPENAI_COMPATIBLE_BASE_URL: baseURL });
    expect(await learnServerWindow("silent", env)).toBeNull();
    expect(await learnServerWindow("silent", env)).toBeNull();
    expect(seen.filter((r) => r === "POST /api/show")).toHaveLength(1);
    expect(resolveModelInfo("compatible:silent", env).contextWindow).toBe(128_000);
  });

  it("lets OPENAI_COMPATIBLE_CONTEXT_WINDOW override the server, which is then not asked", async () => {
    const { baseURL, seen } = await shapedServer({
      "POST /api/show": ollamaShow("num_ctx 8192"),
    });
    const env = parseEnv({
      OPENAI_COMPATIBLE_BASE_URL: baseURL,
      OPENAI_COMPATIBLE_CONTEXT_WINDOW: "20000",
    });
    expect(resolveModelInfo("compatible:llama3.1", env).contextWindow).toBe(20_000);
    expect(modelWindowSource("compatible:llama3.1", env)).toBe(
      "env:OPENAI_COMPATIBLE_CONTEXT_WINDOW",
    );
    expect(seen).toEqual([]);
  });

  it("says where other models' windows come from", () => {
    expect(modelWindowSource("openai:gpt-4.1", {})).toBe("table");
    expect(modelWindowSource("mistral:large", {})).toBe("unknown_model");
    expect(modelWindowSource("openai:gpt-4.1", { BATON_CONTEXT_WINDOW: 9000 })).toBe(
      "env:BATON_CONTEXT_WINDOW",
    );
    expect(modelWindowSource("baton/local", {})).toBe("default:offline");
    expect(knownServerWindow("m", {})).toBeNull();
  });
});
