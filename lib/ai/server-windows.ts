// The context window an OpenAI-compatible server actually runs a model with, asked of the server
// once per (server, model) and cached (a server that said nothing is asked again a minute later). Asking happens in the background (at start-up, or the first
// time a model is used): a chat turn never waits for it, and uses the registry's fallback until
// the answer is in.
import { type ServerEnv, serverEnv } from "@/core/env";
import { log } from "@/core/log";

/** Where a compatible model's window came from (the registry adds its own sources). */
export type ServerWindowSource =
  /** Ollama `/api/show`: the model's `num_ctx` parameter. */
  | "ollama:num_ctx"
  /** Ollama `/api/ps`: the context the loaded model runs with. */
  | "ollama:ps"
  /** Ollama answered without either: OLLAMA_CONTEXT_LENGTH, as its server was started with. */
  | "env:OLLAMA_CONTEXT_LENGTH"
  /** Ollama answered without either and OLLAMA_CONTEXT_LENGTH is unset. */
  | "ollama:default"
  /** vLLM `/v1/models`: `max_model_len`. */
  | "vllm:max_model_len"
  /** llama.cpp `/props`: `n_ctx`. */
  | "llamacpp:n_ctx";

export interface ServerWindow {
  contextWindow: number;
  source: ServerWindowSource;
}

/**
 * Ollama's own default when nothing sets num_ctx. Its model card's `context_length` (in
 * model_info) is the most the model supports, not what the server runs: requests past num_ctx
 * are silently truncated, so the smaller number is the one to plan resets by.
 */
export const OLLAMA_DEFAULT_CONTEXT = 4096;

const PROBE_TIMEOUT_MS = 3_000;

export type WindowEnv = Pick<ServerEnv, "OPENAI_COMPATIBLE_BASE_URL" | "OLLAMA_CONTEXT_LENGTH">;

type Fetch = typeof fetch;

async function getJson(
  fetcher: Fetch,
  url: string,
  init: RequestInit = {},
): Promise<Record<string, unknown> | null> {
  try {
    const response = await fetcher(url, { ...init, signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    if (!response.ok) return null;
    const body: unknown = await response.json();
    return body !== null && typeof body === "object" ? (body as Record<string, unknown>) : null;
  } catch {
    // Not this kind of server, or not reachable: the next probe, or the fallback, answers.
    return null;
  }
}

const positive = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isInteger(value) && value > 0 ? value : undefined;

/** `num_ctx` from Ollama's `parameters`, a text of `name value` lines. */
export function numCtxOf(parameters: unknown): number | undefined {
  if (typeof parameters !== "string") return undefined;
  const line = parameters.split("\n").find((l) => /^\s*num_ctx\s+/.test(l));
  const value = line ? Number(line.trim().split(/\s+/)[1]) : Number.NaN;
  return positive(value);
}

/** The server's root (Ollama's native API and llama.cpp's /props live there, not under /v1). */
function rootOf(baseURL: string): string {
  return baseURL.replace(/\/v1\/?$/, "");
}

async function fromOllama(
  fetcher: Fetch,
  baseURL: string,
  model: string,
  env: WindowEnv,
): Promise<ServerWindow | null> {
  const root = rootOf(baseURL);
  const show = await getJson(fetcher, `${root}/api/show`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model }),
  });
  if (!show) return null;
  const numCtx = numCtxOf(show.parameters);
  if (numCtx) return { contextWindow: numCtx, source: "ollama:num_ctx" };
  const ps = await getJson(fetcher, `${root}/api/ps`);
  const loaded = Array.isArray(ps?.models)
    ? (ps.models as Record<string, unknown>[]).find((m) => m.name === model || m.model === model)
    : undefined;
  const running = positive(loaded?.context_length);
  if (running) return { contextWindow: running, source: "ollama:ps" };
  if (env.OLLAMA_CONTEXT_LENGTH) {
    return { contextWindow: env.OLLAMA_CONTEXT_LENGTH, source: "env:OLLAMA_CONTEXT_LENGTH" };
  }
  log.warn(
    `Ollama did not say the context of ${model} (no num_ctx, not loaded): planning for its default of ${OLLAMA_DEFAULT_CONTEXT} tokens; set OPENAI_COMPATIBLE_CONTEXT_WINDOW or OLLAMA_CONTEXT_LENGTH`,
  );
  return { contextWindow: OLLAMA_DEFAULT_CONTEXT, source: "ollama:default" };
}

async function fromVllm(
  fetcher: Fetch,
  baseURL: string,
  model: string,
): Promise<ServerWindow | null> {
  const models = await getJson(fetcher, `${baseURL}/models`);
  const entry = Array.isArray(models?.data)
    ? (models.data as Record<string, unknown>[]).find((m) => m.id === model)
    : undefined;
  const length = positive(entry?.max_model_len);
  return length ? { contextWindow: length, source: "vllm:max_model_len" } : null;
}

async function fromLlamaCpp(fetcher: Fetch, baseURL: string): Promise<ServerWindow | null> {
  const props = await getJson(fetcher, `${rootOf(baseURL)}/props`);
  const settings = props?.default_generation_settings as Record<string, unknown> | undefined;
  const nCtx = positive(props?.n_ctx) ?? positive(settings?.n_ctx);
  return nCtx ? { contextWindow: nCtx, source: "llamacpp:n_ctx" } : null;
}

/**
 * Asks the server what window it runs `model` with: Ollama first (its num_ctx, then the loaded
 * model's context, then OLLAMA_CONTEXT_LENGTH, then its default), then vLLM, then llama.cpp.
 * Null when the server says nothing (the registry's fallback then applies).
 */
export async function askServerWindow(
  baseURL: string,
  model: string,
  env: WindowEnv,
  fetcher: Fetch = fetch,
): Promise<ServerWindow | null> {
  return (
    (await fromOllama(fetcher, baseURL, model, env)) ??
    (await fromVllm(fetcher, baseURL, model)) ??
    (await fromLlamaCpp(fetcher, baseURL))
  );
}

const asked = new Map<string, Promise<ServerWindow | null>>();
const known = new Map<string, ServerWindow | null>();
/** When a server that said nothing (or was down) may be asked again. */
const retryAt = new Map<string, number>();
const RETRY_SILENT_MS = 60_000;

const keyOf = (baseURL: string, model: string) => `${baseURL} ${model}`;

/**
 * Starts asking the configured compatible server about `model` unless that was done already;
 * resolves with the answer (callers on a request path do not wait for it).
 */
export function learnServerWindow(
  model: string,
  env: WindowEnv = serverEnv(),
  fetcher: Fetch = fetch,
): Promise<ServerWindow | null> {
  const baseURL = env.OPENAI_COMPATIBLE_BASE_URL;
  if (!baseURL) return Promise.resolve(null);
  const key = keyOf(baseURL, model);
  let pending = asked.get(key);
  const again = known.get(key) === null && Date.now() >= (retryAt.get(key) ?? 0);
  if (!pending || again) {
    // Set before the answer, so an answer in flight is not asked for twice.
    retryAt.set(key, Date.now() + RETRY_SILENT_MS);
    pending = askServerWindow(baseURL, model, env, fetcher).then((window) => {
      known.set(key, window);
      if (window === null) retryAt.set(key, Date.now() + RETRY_SILENT_MS);
      return window;
    });
    asked.set(key, pending);
  }
  return pending;
}

/** What the server said about `model`, if it has answered; starts asking when nobody has. */
export function knownServerWindow(
  model: string,
  env: WindowEnv = serverEnv(),
): ServerWindow | null {
  const baseURL = env.OPENAI_COMPATIBLE_BASE_URL;
  if (!baseURL) return null;
  const key = keyOf(baseURL, model);
  void learnServerWindow(model, env);
  return known.get(key) ?? null;
}
