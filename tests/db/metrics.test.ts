// GET /api/metrics through its route handler: off without BATON_METRICS_TOKEN, bearer-protected
// with it, and each counter moves by exactly what a chat turn, a manual reset and three handoff
// upserts (stored, duplicate, stale) did.
import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as mcpRoute } from "@/app/api/mcp/route";
import { GET as metricsRoute } from "@/app/api/metrics/route";
import { resetThreadManually } from "@/lib/runs/reset-requests";
import { createActor, sendTurn } from "../support/chat";
import {
  acceptHandoff,
  artifactOf,
  cancelHandoff,
  getHandoff,
  groom,
  listPage,
  upsert,
  userWithToken,
} from "./handoff-support";

const TOKEN = `metrics-${randomBytes(12).toString("hex")}`;
const URL_ = "http://localhost:3000/api/metrics";
const saved = process.env.BATON_METRICS_TOKEN;

beforeAll(() => {
  process.env.BATON_LOCAL_DELAY_MS = "0";
  process.env.BATON_LOCAL_HANDOFF_DELAY_MS = "0";
  process.env.BATON_METRICS_TOKEN = TOKEN;
});

afterAll(() => {
  if (saved === undefined) delete process.env.BATON_METRICS_TOKEN;
  else process.env.BATON_METRICS_TOKEN = saved;
});

function scrapeWith(authorization?: string): Promise<Response> {
  const headers = new Headers(authorization ? { authorization } : {});
  return metricsRoute(new Request(URL_, { headers }), { params: Promise.resolve({}) });
}

type Samples = Map<string, number>;

/** `name{a="1",b="2"}` with the labels sorted, so a lookup does not depend on their order. */
function sampleKey(name: string, labels: Record<string, string>): string {
  const pairs = Object.entries(labels)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}="${v}"`);
  return `${name}{${pairs.join(",")}}`;
}

/** Parses the Prometheus text exposition format (the sample lines; comments skipped). */
function parseMetrics(text: string): Samples {
  const samples: Samples = new Map();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match?.[1] || !match[3]) throw new Error(`unparsable metrics line: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) {
      if (pair[1]) labels[pair[1]] = pair[2] ?? "";
    }
    samples.set(sampleKey(match[1], labels), Number(match[3]));
  }
  return samples;
}

async function scrape(): Promise<Samples> {
  const response = await scrapeWith(`Bearer ${TOKEN}`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain("text/plain");
  return parseMetrics(await response.text());
}

const value = (samples: Samples, name: string, labels: Record<string, string> = {}) =>
  samples.get(sampleKey(name, labels)) ?? 0;

describe("GET /api/metrics", () => {
  it("answers 404 while BATON_METRICS_TOKEN is unset, and 401 to a wrong or missing token", async () => {
    delete process.env.BATON_METRICS_TOKEN;
    try {
      const off = await scrapeWith(`Bearer ${TOKEN}`);
      expect(off.status).toBe(404);
      expect(((await off.json()) as { error: { code: string } }).error.code).toBe(
        "not_found:route",
      );
    } finally {
      process.env.BATON_METRICS_TOKEN = TOKEN;
    }
    for (const authorization of [`Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(1)}`, "", TOKEN]) {
      const refused = await scrapeWith(authorization || undefined);
      expect(refused.status, `authorization "${authorization.slice(0, 8)}…"`).toBe(401);
      expect(refused.headers.get("www-authenticate")).toContain("Bearer");
      expect(await refused.text()).not.toContain("chat_turns_total");
    }
  });

  it("counts a chat turn, a reset and three handoff upserts by exactly their amounts", async () => {
    const before = await scrape();

    const actor = await createActor();
    const threadId = randomUUID();
    await sendTurn(actor, threadId, "Outline the plan in two steps.");
    const reset = await resetThreadManually({ userId: actor.id, threadId, fromSession: 1 });
    expect(reset.created).toBe(true);

    const { headers } = await userWithToken();
    const key = `metrics-${randomBytes(4).toString("hex")}`;
    expect((await upsert(headers, { key, revision: 1, artifact: artifactOf() })).status).toBe(201);
    expect((await upsert(headers, { key, revision: 1, artifact: artifactOf() })).status).toBe(200);
    const stale = artifactOf({ next_step: "other content" });
    expect((await upsert(headers, { key, revision: 1, artifact: stale })).status).toBe(409);
    expect((await getHandoff(headers, key)).status).toBe(200);

    const after = await scrape();
    const delta = (name: string, labels: Record<string, string> = {}) =>
      value(after, name, labels) - value(before, name, labels);

    expect(delta("chat_turns_total")).toBe(1);
    expect(delta("time_to_first_token_seconds_count")).toBe(1);
    expect(delta("context_resets_total", { trigger: "manual", outcome: "committed" })).toBe(1);
    expect(delta("context_reset_duration_seconds_count")).toBe(1);
    expect(delta("compactions_total")).toBe(0);
    expect(delta("queued_messages_total")).toBe(0);
    for (const outcome of ["stored", "duplicate", "stale"]) {
      expect(delta("handoff_operations_total", { kind: "upsert", outcome }), outcome).toBe(1);
    }
    const http = (route: string, method: string, status: string) =>
      delta("http_requests_total", { route, method, status });
    expect(http("/api/handoffs", "POST", "201")).toBe(1);
    expect(http("/api/handoffs", "POST", "200")).toBe(1);
    expect(http("/api/handoffs", "POST", "409")).toBe(1);
    // Labelled by the route's pattern: the handoff key (or any id) never becomes a label.
    expect(http("/api/handoffs/[key]", "GET", "200")).toBe(1);
    expect([...after.keys()].filter((k) => k.includes(key))).toEqual([]);
    // The first scrape is counted once it has answered.
    expect(http("/api/metrics", "GET", "200")).toBe(1);
  });

  it("counts accepts (stored, duplicate), a cancel, a refused cancel and a groom by kind and outcome", async () => {
    const before = await scrape();
    const { headers } = await userWithToken();
    const key = `metrics-${randomBytes(4).toString("hex")}`;
    const stored = await upsert(headers, { key, revision: 1, artifact: artifactOf() });
    expect(stored.status).toBe(201);
    const accept = { id: stored.body.id, receiver: "agent:metrics" };
    expect((await acceptHandoff(headers, key, accept)).status).toBe(201);
    expect((await acceptHandoff(headers, key, accept)).status).toBe(200);
    expect((await cancelHandoff(headers, key)).status).toBe(200);
    expect((await cancelHandoff(headers, `${key}-absent`)).status).toBe(404);
    expect((await groom(headers)).status).toBe(200);

    const after = await scrape();
    const delta = (kind: string, outcome: string) =>
      value(after, "handoff_operations_total", { kind, outcome }) -
      value(before, "handoff_operations_total", { kind, outcome });
    expect(delta("upsert", "stored")).toBe(1);
    expect(delta("accept", "stored")).toBe(1);
    expect(delta("accept", "duplicate")).toBe(1);
    expect(delta("cancel", "ok")).toBe(1);
    expect(delta("cancel", "not_found")).toBe(1);
    expect(delta("groom", "ok")).toBe(1);
    expect(delta("upsert", "stale")).toBe(0);
  });

  it("counts a served MCP tool call and a rate-limit rejection", async () => {
    const savedLimit = process.env.BATON_RATE_LIMIT_API;
    process.env.BATON_RATE_LIMIT_API = "2/60s";
    try {
      const before = await scrape();
      const { token, headers } = await userWithToken();
      const call = await mcpRoute(
        new Request("http://localhost:3000/api/mcp", {
          method: "POST",
          headers: {
            authorization: `Bearer ${token}`,
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
          },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "tools/call",
            params: { name: "list_handoffs", arguments: {} },
          }),
        }),
      );
      expect(call.status).toBe(200);
      expect((await listPage(headers)).status).toBe(200);
      expect((await listPage(headers)).status).toBe(429);

      const after = await scrape();
      const delta = (name: string, labels: Record<string, string> = {}) =>
        value(after, name, labels) - value(before, name, labels);
      expect(delta("mcp_calls_total", { direction: "served" })).toBe(1);
      expect(delta("mcp_calls_total", { direction: "outbound" })).toBe(0);
      expect(delta("rate_limit_rejections_total", { limit: "api" })).toBe(1);
      const http = (route: string, method: string, status: string) =>
        delta("http_requests_total", { route, method, status });
      expect(http("/api/mcp", "POST", "200")).toBe(1);
      expect(http("/api/handoffs", "GET", "429")).toBe(1);
    } finally {
      if (savedLimit === undefined) delete process.env.BATON_RATE_LIMIT_API;
      else process.env.BATON_RATE_LIMIT_API = savedLimit;
    }
  });
});
