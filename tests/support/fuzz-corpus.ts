// A fixed corpus of malformed requests for each (route, method) of the filesystem route list:
// unstorable text (NUL, lone surrogates) in every string field, key and query parameter, bad
// percent-encoding in path segments, bad cursors, wrong content types, invalid JSON, deep
// nesting and oversized bodies. Each case says what an answer must be.
import { randomUUID } from "node:crypto";
import type { RouteCase } from "./routes";

/** Exact statuses, any 4xx, or anything below 500 (the input may be acceptable). */
export type Expectation = number[] | "4xx" | "below-500";

export interface FuzzCase {
  label: string;
  base: RouteCase;
  /** Path and query, already encoded as they go on the wire. */
  url: string;
  params: Record<string, string | string[]>;
  contentType?: string | null;
  body?: string | (() => ReadableStream<Uint8Array>);
  /** A Content-Length header to declare (which may lie). */
  contentLength?: number;
  expect: Expectation;
}

/** The README's limit for a request body. */
export const MAX_BODY_BYTES = 256_000;

export const BAD_SEGMENTS = [
  "%C0%AF",
  "%ZZ",
  "%",
  "%E0%A4%A",
  "%00",
  "\u0000",
  "\ud800",
  "a\udfffb",
  "..",
  "%2e%2e%2f%2e%2e",
  "x".repeat(5000),
];

const UNSTORABLE = [
  ["NUL", "a\u0000b"],
  ["lone high surrogate", "\ud800"],
  ["lone low surrogate", "x\udfffy"],
] as const;

/** Not JSON at all. */
const INVALID_JSON = [
  "{",
  '{"a":',
  '{"a":1,}',
  '{"a":1}{"b":2}',
  "NaN",
  "{'single':'quotes'}",
  "\u0000",
  "\ufeff\ufeff{}",
];

/** JSON, but never the object a route takes (`null` is left out: optional bodies read it as {}). */
const WRONG_SHAPE_JSON = ["[]", '"text"', "1e999999", "true"];

const NON_JSON_TYPES = [
  "text/plain",
  "text/plain;charset=UTF-8",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "text/json",
  "application/jsonx",
];

const uuid = "0195a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b";
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

/** Query values each paged route must refuse with a 400. */
const BAD_QUERIES: Record<string, Record<string, string>[]> = {
  "/api/threads": [
    { cursor: "abc" },
    { cursor: `2024-13-99|${uuid}` },
    { cursor: `2024-02-30T25:61:00.000Z|${uuid}` },
    { cursor: `not-a-date|${uuid}` },
    { cursor: `99999-01-01T00:00:00.000Z|${uuid}` },
    { cursor: `2024-01-01T00:00:00.000Z|${"-".repeat(36)}` },
    { limit: "0" },
    { limit: "1e400" },
    { limit: "abc" },
  ],
  "/api/threads/[id]": [
    { beforeSeq: "abc" },
    { beforeSeq: "-1" },
    { fromSeq: "1.5" },
    { beforeSeq: "5", fromSeq: "1" },
    { limit: "100000" },
  ],
  "/api/handoffs": [
    { cursor: "abc" },
    { cursor: "=====" },
    { cursor: b64(["2024-13-99T99:99:99.000000Z", uuid]) },
    { cursor: b64(["2024-02-30T00:00:00.000000Z", uuid]) },
    { cursor: b64(["0000-00-00T00:00:00.000000Z", uuid]) },
    { cursor: b64([1, 2]) },
    { state: "nope" },
    { limit: "-5" },
  ],
  "/api/handoffs/[key]": [{ revision: "abc" }, { revision: "0" }, { revision: "1.5" }],
};
BAD_QUERIES["/share/[token]/messages"] = BAD_QUERIES["/api/threads/[id]"] ?? [];

/** Query values that are odd but may be valid input: they must only never cause a 5xx. */
const ODD_QUERY_VALUES = ["%C0%AF", "%ZZ", "%", "%ED%A0%80", "x".repeat(3000)];

/** Every path to a string inside a JSON value, e.g. `[["message","parts",0,"text"], …]`. */
function stringPaths(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (typeof value === "string") return [at];
  if (Array.isArray(value)) return value.flatMap((v, i) => stringPaths(v, [...at, i]));
  if (value && typeof value === "object") {
    return Object.entries(value).flatMap(([k, v]) => stringPaths(v, [...at, k]));
  }
  return [];
}

function replaced(value: unknown, at: (string | number)[], next: unknown): unknown {
  if (at.length === 0) return next;
  const [head, ...rest] = at as [string | number, ...(string | number)[]];
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<
    string | number,
    unknown
  >;
  copy[head] = replaced(copy[head], rest, next);
  return copy;
}

function queryString(query: Record<string, string>, raw = false): string {
  const entries = Object.entries(query);
  if (entries.length === 0) return "";
  if (raw) return `?${entries.map(([k, v]) => `${k}=${v}`).join("&")}`;
  return `?${new URLSearchParams(query)}`;
}

function pathWith(base: RouteCase, name: string, raw: string): string {
  const value = base.params[name];
  const shown = Array.isArray(value) ? value.join("/") : (value ?? "");
  return base.path.replace(encodeURIComponent(shown), raw).replace(shown, raw);
}

/** Better Auth's endpoints and MCP (JSON-RPC) answer for themselves. */
function selfParsing(base: RouteCase): boolean {
  return base.route.pattern.startsWith("/api/auth") || base.route.pattern === "/api/mcp";
}

/** A refusal with these statuses, or any 4xx from a route that answers for itself. */
function exact(base: RouteCase, statuses: number[]): Expectation {
  return selfParsing(base) ? "4xx" : statuses;
}

/**
 * Valid JSON of the wrong shape: a 400 from a route the wrapper parses for. Better Auth and MCP
 * may ignore what they do not read (sign-out takes no fields; `[]` is an empty JSON-RPC batch).
 */
function wrongShape(base: RouteCase): Expectation {
  return selfParsing(base) ? "below-500" : [400];
}

export function fuzzCases(cases: RouteCase[]): FuzzCase[] {
  const out: FuzzCase[] = [];
  const pathsDone = new Set<string>();
  for (const base of cases) {
    const name = base.label;
    const json = base.body === undefined ? undefined : JSON.stringify(base.body);
    const add = (
      label: string,
      rest: Omit<FuzzCase, "label" | "base" | "url" | "params"> & {
        url?: string;
        params?: FuzzCase["params"];
      },
    ) =>
      out.push({
        label: `${name}: ${label}`,
        base,
        url: rest.url ?? base.path + queryString(base.query ?? {}),
        params: rest.params ?? base.params,
        ...rest,
      });

    // Path segments (once per route, method and param: the catch-all has several sample paths).
    for (const [param, value] of Object.entries(base.params)) {
      const key = `${base.route.file} ${base.method} ${param}`;
      if (pathsDone.has(key)) continue;
      pathsDone.add(key);
      for (const bad of BAD_SEGMENTS) {
        const raw = /^[\x21-\x7e]*$/.test(bad)
          ? bad
          : encodeURIComponent(bad.replace(/[\ud800-\udfff]/g, "?"));
        add(`path [${param}] = ${JSON.stringify(bad.slice(0, 20))}`, {
          url: pathWith(base, param, raw) + queryString(base.query ?? {}),
          params: { ...base.params, [param]: Array.isArray(value) ? [bad] : bad },
          body: json,
          contentType: json === undefined ? null : "application/json",
          expect: [400, 404],
        });
      }
    }

    // Query parameters of GET and HEAD routes (neither reads a body).
    if (base.method === "GET" || base.method === "HEAD") {
      for (const key of Object.keys(base.query ?? {})) {
        add(`query ${key} with NUL`, {
          url: base.path + queryString({ ...base.query, [key]: "a%00b" }, true),
          expect: [400],
        });
        for (const odd of ODD_QUERY_VALUES) {
          add(`query ${key}=${odd.slice(0, 12)}`, {
            url: base.path + queryString({ ...base.query, [key]: odd }, true),
            expect: "below-500",
          });
        }
      }
      add("unknown query parameter with NUL", {
        url: `${base.path}?zzz=%00`,
        expect: "below-500",
      });
      for (const query of BAD_QUERIES[base.route.pattern] ?? []) {
        add(`query ${new URLSearchParams(query)}`, {
          url: base.path + queryString(query),
          expect: [400],
        });
      }
      continue;
    }

    // Content types: a state-changing request must send JSON.
    for (const type of NON_JSON_TYPES) {
      add(`content-type ${type}`, { body: json ?? "{}", contentType: type, expect: [415] });
    }
    add("no content-type with a body", { body: json ?? "{}", contentType: null, expect: [415] });
    if (json === undefined) continue; // the rest is about bodies this route reads

    for (const at of stringPaths(base.body)) {
      for (const [what, text] of UNSTORABLE) {
        add(`${what} in ${at.join(".")}`, {
          body: JSON.stringify(replaced(base.body, at, text)),
          contentType: "application/json",
          expect: exact(base, [400]),
        });
      }
    }
    if (base.body && typeof base.body === "object" && !Array.isArray(base.body)) {
      add("NUL in an object key", {
        body: JSON.stringify({ ...base.body, "k\u0000": 1 }),
        contentType: "application/json",
        expect: wrongShape(base),
      });
    }
    // Better Auth endpoints that take no fields (sign-out) may not read the body at all.
    const fieldless = Object.keys(base.body ?? {}).length === 0;
    for (const text of INVALID_JSON) {
      add(`invalid JSON ${JSON.stringify(text.slice(0, 16))}`, {
        body: text,
        contentType: "application/json",
        expect: fieldless && selfParsing(base) ? "below-500" : exact(base, [400]),
      });
    }
    for (const text of WRONG_SHAPE_JSON) {
      add(`JSON of the wrong shape ${text}`, {
        body: text,
        contentType: "application/json",
        expect: wrongShape(base),
      });
    }
    const deep = 10_000;
    add("arrays nested 10k deep", {
      body: `${"[".repeat(deep)}${"]".repeat(deep)}`,
      contentType: "application/json",
      expect: wrongShape(base),
    });
    add("objects nested 10k deep", {
      body: `${'{"a":'.repeat(deep)}1${"}".repeat(deep)}`,
      contentType: "application/json",
      expect: wrongShape(base),
    });
    const first = stringPaths(base.body)[0];
    if (first) {
      // Built as text: JSON.stringify itself overflows the stack this deep.
      const marker = "\u0001deep\u0001";
      const nested = `${"[".repeat(deep)}"x"${"]".repeat(deep)}`;
      add(`a 10k-deep array in ${first.join(".")}`, {
        body: JSON.stringify(replaced(base.body, first, marker)).replace(
          JSON.stringify(marker),
          nested,
        ),
        contentType: "application/json",
        expect: exact(base, [400]),
      });
    }

    // Over the size limit: declared, streamed without a length, and under a lying length.
    const big = first
      ? JSON.stringify(replaced(base.body, first, "x".repeat(MAX_BODY_BYTES + 10)))
      : `{"pad":"${"x".repeat(MAX_BODY_BYTES + 10)}"}`;
    const stream = () =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          const bytes = new TextEncoder().encode(big);
          for (let i = 0; i < bytes.length; i += 16_384)
            controller.enqueue(bytes.slice(i, i + 16_384));
          controller.close();
        },
      });
    add("oversized body with Content-Length", {
      body: big,
      contentLength: Buffer.byteLength(big),
      contentType: "application/json",
      expect: [413],
    });
    add("oversized body streamed without Content-Length", {
      body: stream,
      contentType: "application/json",
      expect: [413],
    });
    add("oversized body under a lying Content-Length", {
      body: stream,
      contentLength: 20,
      contentType: "application/json",
      expect: [413],
    });
  }
  return out;
}

/** Chat requests that fail and must leave no thread behind (the orphan-thread bug). */
export function failingChatBodies(
  existingMessageId: string,
): { label: string; body: unknown; expect: Expectation }[] {
  const message = (text: string, id: string = randomUUID()) => ({
    id,
    role: "user",
    parts: [{ type: "text", text }],
  });
  const fresh = () => randomUUID();
  return [
    {
      label: "an unknown model",
      body: { trigger: "submit-message", id: fresh(), message: message("hi"), model: "nope:nope" },
      expect: "4xx",
    },
    {
      label: "regenerate in a thread that does not exist",
      body: { trigger: "regenerate-message", id: fresh() },
      expect: "4xx",
    },
    {
      label: "a message over the length limit",
      body: { trigger: "submit-message", id: fresh(), message: message("y".repeat(32_001)) },
      expect: "4xx",
    },
    {
      label: "another thread's message id",
      body: { trigger: "submit-message", id: fresh(), message: message("hi", existingMessageId) },
      expect: "below-500",
    },
    {
      label: "NUL in the text of a new thread's first message",
      body: { trigger: "submit-message", id: fresh(), message: message("a\u0000b") },
      expect: [400],
    },
    {
      label: "a lone surrogate in the model of a new thread",
      body: { trigger: "submit-message", id: fresh(), message: message("hi"), model: "\ud800" },
      expect: [400],
    },
  ];
}
