// Same-site request forgery, in-process: every state-changing (route, method) found under app/,
// sent with the victim's real session cookie from another origin on the same host, answers
// 403 forbidden:origin and changes no byte of any table. A same-origin request still works.
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  APP_ORIGIN,
  callRoute,
  dbHashes,
  OTHER_ORIGIN,
  routeAt,
  sameOrigin,
  seedVictim,
} from "../support/route-call";
import {
  destructiveLast,
  isStateChanging,
  listRouteFiles,
  type RouteCase,
  type RouteFile,
  routeCases,
  type Victim,
} from "../support/routes";
import { scratchApp, UNWRAPPED_ROUTE, WRAPPED_ROUTE } from "../support/scratch-app";
import { changedTables } from "../support/table-hash";

let victim: Victim;
let cookie: string;

beforeAll(() => {
  process.env.BATON_LOCAL_DELAY_MS = "0";
  // Generous limits: this file sends dozens of requests as one user from one address.
  for (const name of ["SIGN_IN", "SIGN_UP", "GUEST", "CHAT", "API"]) {
    process.env[`BATON_RATE_LIMIT_${name}`] = "100000/60s";
  }
});

// A fresh victim for each kind of forgery: one that wrongly succeeded (a sign-out, a deleted
// thread) must not make the next kind pass for the wrong reason.
beforeEach(async () => {
  ({ victim, cookie } = await seedVictim());
});

interface Forgery {
  name: string;
  headers: (cookie: string, victim: Victim) => Record<string, string>;
  encode: (body: unknown) => string | undefined;
}

const asText = (body: unknown) => (body === undefined ? undefined : JSON.stringify(body));

/** How a page on another origin of the same site (or no trustworthy origin) sends a request. */
const FORGERIES: Forgery[] = [
  {
    name: "Origin of another port, Sec-Fetch-Site same-site, text/plain",
    headers: (c) => ({
      cookie: c,
      origin: OTHER_ORIGIN,
      "sec-fetch-site": "same-site",
      "content-type": "text/plain",
    }),
    encode: asText,
  },
  {
    name: "no Origin, Sec-Fetch-Site same-site, text/plain",
    headers: (c) => ({ cookie: c, "sec-fetch-site": "same-site", "content-type": "text/plain" }),
    encode: asText,
  },
  {
    name: "Origin of another port with a JSON content type",
    headers: (c) => ({
      cookie: c,
      origin: OTHER_ORIGIN,
      "sec-fetch-site": "same-site",
      "content-type": "application/json",
    }),
    encode: asText,
  },
  {
    name: "Origin null (sandboxed form), urlencoded",
    headers: (c) => ({
      cookie: c,
      origin: "null",
      "sec-fetch-site": "cross-site",
      "content-type": "application/x-www-form-urlencoded",
    }),
    encode: (body) => (body === undefined ? undefined : `payload=${JSON.stringify(body)}`),
  },
  {
    name: "neither Origin nor Sec-Fetch-Site, JSON",
    headers: (c) => ({ cookie: c, "content-type": "application/json" }),
    encode: asText,
  },
  {
    name: "cookie and a valid bearer token from another origin",
    headers: (c, v) => ({
      cookie: c,
      authorization: `Bearer ${v.token}`,
      origin: OTHER_ORIGIN,
      "sec-fetch-site": "same-site",
      "content-type": "application/json",
    }),
    encode: asText,
  },
];

function stateChangingCases(routes?: RouteFile[]): RouteCase[] {
  return destructiveLast(routeCases(victim, routes).filter((c) => isStateChanging(c.method)));
}

interface Outcome {
  request: string;
  status: number;
  code: unknown;
  changed: string[];
}

/** Sends each case forged; returns every answer that is not a clean 403 forbidden:origin. */
async function forge(cases: RouteCase[], forgery: Forgery): Promise<Outcome[]> {
  const failures: Outcome[] = [];
  for (const c of cases) {
    const before = await dbHashes();
    const response = await callRoute(c.route, c.method, `${APP_ORIGIN}${c.path}`, {
      headers: new Headers({ host: "localhost:3000", ...forgery.headers(cookie, victim) }),
      params: c.params,
      body: forgery.encode(c.body),
    });
    const text = await response.text();
    let code: unknown = null;
    try {
      code = (JSON.parse(text) as { error?: { code?: unknown } }).error?.code ?? null;
    } catch {
      code = `not JSON: ${text.slice(0, 80)}`;
    }
    const changed = changedTables(before, await dbHashes());
    if (response.status !== 403 || code !== "forbidden:origin" || changed.length > 0) {
      failures.push({ request: c.label, status: response.status, code, changed });
    }
  }
  return failures;
}

describe("forged same-site requests", () => {
  it("covers every state-changing route found under app/", () => {
    const labels = stateChangingCases().map((c) => c.label);
    // The list is read from the filesystem; these are ones the issue names, as a floor.
    for (const expected of [
      "POST /api/chat #1",
      "POST /api/threads/[id]/share",
      "POST /api/handoffs",
      "POST /api/handoffs/[key]/cancel",
      "POST /api/tokens",
      "POST /api/threads/[id]/reset",
      "POST /api/handoffs/groom",
    ]) {
      expect(labels).toContain(expected);
    }
  });

  for (const forgery of FORGERIES) {
    it(`${forgery.name}: 403 forbidden:origin and every table unchanged`, async () => {
      expect(await forge(stateChangingCases(), forgery)).toEqual([]);
    });
  }

  it("a state-changing route added without the wrapper fails this check", async () => {
    const app = scratchApp({
      "app/api/added/route.ts": UNWRAPPED_ROUTE,
      "app/api/wrapped/route.ts": WRAPPED_ROUTE,
    });
    try {
      const cases = stateChangingCases(listRouteFiles(app.root));
      const [forgery] = FORGERIES;
      if (!forgery) throw new Error("no forgeries");
      expect(await forge(cases, forgery)).toEqual([
        { request: "POST /api/added", status: 200, code: null, changed: [] },
      ]);
    } finally {
      app.remove();
    }
  });

  it("a same-origin JSON request still changes what it should", async () => {
    const before = await dbHashes();
    const response = await callRoute(
      routeAt("/api/threads/[id]"),
      "PATCH",
      `${APP_ORIGIN}/api/threads/${victim.threadId}`,
      {
        headers: sameOrigin(cookie),
        params: { id: victim.threadId },
        body: JSON.stringify({ title: "Renamed by its owner" }),
      },
    );
    expect(response.status).toBe(200);
    expect(((await response.json()) as { thread: { title: string } }).thread.title).toBe(
      "Renamed by its owner",
    );
    expect(changedTables(before, await dbHashes())).toEqual(["public.threads"]);
  });

  it("a same-origin request with a text/plain body is refused (415) and changes nothing", async () => {
    const before = await dbHashes();
    const response = await callRoute(
      routeAt("/api/handoffs"),
      "POST",
      `${APP_ORIGIN}/api/handoffs`,
      {
        headers: sameOrigin(cookie, "text/plain"),
        params: {},
        body: JSON.stringify({ key: "plain-text", artifact: { goal: "g", state_summary: "s" } }),
      },
    );
    expect(response.status).toBe(415);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
      "unsupported_media_type:body",
    );
    expect(changedTables(before, await dbHashes())).toEqual([]);
  });

  it("a bearer-token client without cookies is not held to the origin check", async () => {
    const response = await callRoute(
      routeAt("/api/handoffs"),
      "POST",
      `${APP_ORIGIN}/api/handoffs`,
      {
        headers: new Headers({
          host: "localhost:3000",
          authorization: `Bearer ${victim.token}`,
          origin: OTHER_ORIGIN,
          "content-type": "application/json",
        }),
        params: {},
        body: JSON.stringify({ key: "agent-notes", artifact: { goal: "g", state_summary: "s" } }),
      },
    );
    expect(response.status).toBe(201);
  });
});
