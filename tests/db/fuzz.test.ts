// Malformed input against every (route, method) of the filesystem route list, in-process, as the
// signed-in owner of real data (so requests pass the origin policy and reach parsing): no answer
// is a 5xx, every refusal is a JSON error, and a refused request changes no row of any table.
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type Expectation,
  type FuzzCase,
  failingChatBodies,
  fuzzCases,
} from "../support/fuzz-corpus";
import {
  APP_ORIGIN,
  callRoute,
  dbHashes,
  routeAt,
  sameOrigin,
  seedVictim,
} from "../support/route-call";
import { destructiveLast, type RouteCase, routeCases, type Victim } from "../support/routes";
import { changedTables, type IgnoredColumns } from "../support/table-hash";

let victim: Victim;
let cookie: string;

// A token's last use is recorded (at most once a minute) whenever it authenticates: that is the
// fuzzer's own token doing its job, not a row the rejected input added.
const IGNORE: IgnoredColumns = { "public.api_tokens": ["last_used_at"] };

beforeAll(() => {
  process.env.BATON_LOCAL_DELAY_MS = "0";
  for (const name of ["SIGN_IN", "SIGN_UP", "GUEST", "CHAT", "API"]) {
    process.env[`BATON_RATE_LIMIT_${name}`] = "100000/60s";
  }
});

// Each test owns its data: a request wrongly accepted in one (a sign-out) cannot spoil the next.
beforeEach(async () => {
  ({ victim, cookie } = await seedVictim());
});

/** The victim's cookie for browser routes; MCP takes only its bearer token. */
function headersFor(base: RouteCase, contentType: string | null | undefined): Headers {
  const headers =
    base.route.pattern === "/api/mcp"
      ? new Headers({ host: "localhost:3000", authorization: `Bearer ${victim.token}` })
      : sameOrigin(cookie);
  headers.delete("content-type");
  if (contentType) headers.set("content-type", contentType);
  headers.set("accept", "application/json, text/event-stream");
  return headers;
}

function meets(expectation: Expectation, status: number): boolean {
  if (expectation === "below-500") return status < 500;
  if (expectation === "4xx") return status >= 400 && status < 500;
  return expectation.includes(status);
}

interface Failure {
  request: string;
  status: number;
  problem: string;
}

/** A refusal: an HTTP error, or (MCP) a JSON-RPC error or failed tool call in a 200. */
function refused(status: number, body: unknown): boolean {
  if (status >= 400) return true;
  const b = body as { error?: unknown; result?: { isError?: boolean } } | null;
  return Boolean(b && (b.error !== undefined || b.result?.isError === true));
}

async function run(
  fuzz: FuzzCase[],
): Promise<{ failures: Failure[]; statuses: Record<number, number> }> {
  const failures: Failure[] = [];
  const statuses: Record<number, number> = {};
  let before = await dbHashes(IGNORE);
  for (const c of fuzz) {
    const headers = headersFor(c.base, c.contentType);
    if (c.contentLength !== undefined) headers.set("content-length", String(c.contentLength));
    const body = typeof c.body === "function" ? c.body() : c.body;
    let status: number;
    let text: string;
    try {
      const response = await callRoute(c.base.route, c.base.method, `${APP_ORIGIN}${c.url}`, {
        headers,
        params: c.params,
        body,
      });
      status = response.status;
      text = await response.text();
    } catch (error) {
      failures.push({ request: c.label, status: 0, problem: `threw: ${String(error)}` });
      before = await dbHashes(IGNORE);
      continue;
    }
    statuses[status] = (statuses[status] ?? 0) + 1;
    let parsed: unknown = null;
    try {
      parsed = text === "" ? null : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    const problems: string[] = [];
    if (status >= 500) problems.push(`server error: ${text.slice(0, 120)}`);
    else if (!meets(c.expect, status)) {
      problems.push(`expected ${JSON.stringify(c.expect)}: ${text.slice(0, 120)}`);
    }
    if (status >= 400 && (parsed === undefined || parsed === null || typeof parsed !== "object")) {
      problems.push(`error body is not JSON: ${JSON.stringify(text.slice(0, 80))}`);
    }
    const after = await dbHashes(IGNORE);
    const changed = changedTables(before, after);
    if (refused(status, parsed) && changed.length > 0) {
      problems.push(`refused but changed ${changed.join(", ")}`);
    }
    if (problems.length > 0)
      failures.push({ request: c.label, status, problem: problems.join("; ") });
    before = after;
  }
  return { failures, statuses };
}

describe("malformed requests to every route", () => {
  it("no 5xx, JSON refusals, and nothing stored by a refused request", async () => {
    const fuzz = fuzzCases(destructiveLast(routeCases(victim)));
    expect(fuzz.length).toBeGreaterThan(300);
    const { failures, statuses } = await run(fuzz);
    expect(failures).toEqual([]);
    // The input reached the parsers: the victim stayed signed in (few 401s, only after the
    // sign-out cases at the end) and the refusals are the ones each kind of input calls for.
    expect(statuses[401] ?? 0).toBeLessThan(fuzz.length * 0.05);
    for (const status of [400, 404, 413, 415]) expect(statuses[status]).toBeGreaterThan(10);
    // Hundreds of requests, two table hashes each: the time grows with the routes.
  }, 180_000);

  it("a failed chat request leaves no thread behind", async () => {
    const view = (await (
      await callRoute(
        routeAt("/api/threads/[id]"),
        "GET",
        `${APP_ORIGIN}/api/threads/${victim.threadId}`,
        { headers: sameOrigin(cookie), params: { id: victim.threadId } },
      )
    ).json()) as { messages: { id: string }[] };
    const existing = view.messages[0]?.id ?? "";
    expect(existing).not.toBe("");
    const chat = routeCases(victim).find((c) => c.label === "POST /api/chat #2");
    if (!chat) throw new Error("no POST /api/chat case");
    const { failures } = await run(
      failingChatBodies(existing).map((b) => ({
        label: `POST /api/chat: ${b.label}`,
        base: chat,
        url: "/api/chat",
        params: {},
        contentType: "application/json",
        body: JSON.stringify(b.body),
        expect: b.expect,
      })),
    );
    expect(failures).toEqual([]);
  });

  it("random UTF-16 text (seeded) in the handoff and chat fields never causes a 5xx", async () => {
    const unit = fc.integer({ min: 0, max: 0xffff }).map((n) => String.fromCharCode(n));
    const text = fc.string({ unit, minLength: 1, maxLength: 40 });
    const upsert = routeCases(victim).find((c) => c.label === "POST /api/handoffs");
    const chat = routeCases(victim).find((c) => c.label === "POST /api/chat #2");
    if (!upsert || !chat) throw new Error("missing cases");
    const samples = fc.sample(fc.tuple(text, text, text), { seed: 20_240_908, numRuns: 40 });
    const fuzz: FuzzCase[] = samples.flatMap(([a, b, c], i) => [
      {
        label: `POST /api/handoffs: random #${i}`,
        base: upsert,
        url: "/api/handoffs",
        params: {},
        contentType: "application/json",
        body: JSON.stringify({
          key: `rnd-${i}`,
          artifact: { goal: a, state_summary: b },
          project: c,
        }),
        expect: "below-500" as const,
      },
      {
        label: `POST /api/chat: random #${i}`,
        base: chat,
        url: "/api/chat",
        params: {},
        contentType: "application/json",
        body: JSON.stringify({
          trigger: "submit-message",
          id: randomUUID(),
          message: { id: randomUUID(), role: "user", parts: [{ type: "text", text: a }] },
          model: b,
        }),
        expect: "below-500" as const,
      },
    ]);
    const { failures } = await run(fuzz);
    expect(failures).toEqual([]);
  });
});
