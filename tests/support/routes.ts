// The app's route handlers, read from the filesystem (`app/**/route.ts` and every HTTP method it
// exports), and concrete requests for each: real sample values for the dynamic segments and a
// valid body, so a request that slipped past the request policy would really change something.
// A route added later shows up here by itself; a dynamic segment nobody knows how to fill fails
// loudly instead of being skipped. No app imports: vitest and Playwright both load this file.
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

export const HTTP_METHODS = ["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];
export const STATE_CHANGING: readonly HttpMethod[] = ["POST", "PUT", "PATCH", "DELETE"];

export type Segment =
  | { kind: "static"; value: string }
  | { kind: "dynamic"; name: string }
  | { kind: "catchAll"; name: string; optional: boolean };

export interface RouteFile {
  /** Relative to the project root, e.g. `app/api/threads/[id]/route.ts`. */
  file: string;
  /** The file's absolute path, to import it. */
  absolute: string;
  /** The URL path with Next's segment syntax, e.g. `/api/threads/[id]`. */
  pattern: string;
  segments: Segment[];
  methods: HttpMethod[];
}

export const PROJECT_ROOT = path.resolve(import.meta.dirname, "../..");

function walk(dir: string, out: string[]): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      // `_folder` is private to Next: never routed.
      if (!entry.name.startsWith("_") && entry.name !== "node_modules") walk(full, out);
    } else if (/^route\.(ts|tsx|js|mjs)$/.test(entry.name)) {
      out.push(full);
    }
  }
}

function parseSegment(raw: string): Segment | null {
  // Route groups `(name)` and parallel slots `@name` are not part of the URL.
  if (/^\(.*\)$/.test(raw) || raw.startsWith("@")) return null;
  const optional = /^\[\[\.\.\.(.+)\]\]$/.exec(raw);
  if (optional?.[1]) return { kind: "catchAll", name: optional[1], optional: true };
  const catchAll = /^\[\.\.\.(.+)\]$/.exec(raw);
  if (catchAll?.[1]) return { kind: "catchAll", name: catchAll[1], optional: false };
  const dynamic = /^\[(.+)\]$/.exec(raw);
  if (dynamic?.[1]) return { kind: "dynamic", name: dynamic[1] };
  return { kind: "static", value: raw };
}

/** Every HTTP method a route module exports, read from its source text. */
export function exportedMethods(source: string): HttpMethod[] {
  const names = new Set<string>();
  const direct =
    /export\s+(?:const|let|var|async\s+function\s*\*?|function\s*\*?)\s*([A-Za-z_$][\w$]*)/g;
  for (const match of source.matchAll(direct)) if (match[1]) names.add(match[1]);
  // `export { GET, handler as POST }` and `export const { GET, POST } = …`.
  for (const match of source.matchAll(/export\s+(?:const|let|var)?\s*\{([^}]*)\}/g)) {
    for (const part of (match[1] ?? "").split(",")) {
      const name = part
        .trim()
        .split(/\s+as\s+|\s*:\s*/)
        .at(-1);
      if (name) names.add(name.trim());
    }
  }
  return HTTP_METHODS.filter((m) => names.has(m));
}

export function listRouteFiles(root: string = PROJECT_ROOT): RouteFile[] {
  const files: string[] = [];
  walk(path.join(root, "app"), files);
  return files.sort().map((full) => {
    const file = path.relative(root, full).split(path.sep).join("/");
    const dirs = file.split("/").slice(1, -1);
    const segments = dirs.map(parseSegment).filter((s): s is Segment => s !== null);
    const pattern = `/${segments
      .map((s) =>
        s.kind === "static"
          ? s.value
          : s.kind === "dynamic"
            ? `[${s.name}]`
            : s.optional
              ? `[[...${s.name}]]`
              : `[...${s.name}]`,
      )
      .join("/")}`;
    const methods = exportedMethods(readFileSync(full, "utf8"));
    return { file, absolute: full, pattern, segments, methods };
  });
}

// ── The victim's data that requests point at ──

export interface Victim {
  /** A thread of the victim with messages in it. */
  threadId: string;
  /** A handoff key of the victim and the content id of its current revision. */
  handoffKey: string;
  handoffId: string;
  /** One of the victim's API tokens (its id; `token` is the secret itself). */
  tokenId: string;
  token: string;
  /** The share token of the victim's thread. */
  shareToken: string;
  /** The run that answered the victim's message (absent where the seeding made none). */
  runId?: string;
  /** One of the thread's pins (absent where the seeding made none). */
  pinId?: string;
  /** The slug of one of the victim's agent profiles. */
  profileId: string;
  /** One of the victim's MCP tool servers (absent where the seeding made none). */
  toolServerId?: string;
  email: string;
  password: string;
}

/** One concrete request for one (route, method). */
export interface RouteCase {
  route: RouteFile;
  method: HttpMethod;
  /** e.g. `POST /api/threads/[id]/share` or `POST /api/auth/[...all] sign-out`. */
  label: string;
  /** The path to request, every segment filled in and percent-encoded. */
  path: string;
  /** What Next hands the handler as `params` for that path. */
  params: Record<string, string | string[]>;
  /** A valid JSON body for the route, or undefined for a route that takes none. */
  body?: unknown;
  /** Query parameters the route reads (GET), with valid values. */
  query?: Record<string, string>;
}

/** Better Auth's endpoints behind the catch-all: ones that change what is stored. */
function authCalls(victim: Victim): { path: string; body?: unknown }[] {
  const stranger = `forged-${randomUUID()}@example.test`;
  return [
    { path: "sign-out", body: {} },
    { path: "update-user", body: { name: "forged name" } },
    { path: "sign-in/anonymous", body: {} },
    { path: "sign-up/email", body: { email: stranger, password: "forged password", name: "x y" } },
    { path: "sign-in/email", body: { email: victim.email, password: victim.password } },
    { path: "revoke-sessions", body: {} },
  ];
}

/** Sample paths (and bodies) behind a catch-all segment, e.g. Better Auth's endpoints. */
function catchAllCalls(
  route: RouteFile,
  method: HttpMethod,
  name: string,
  victim: Victim,
): { path: string; body?: unknown }[] {
  if (route.pattern === "/api/auth/[...all]") {
    return method === "GET" ? [{ path: "get-session" }] : authCalls(victim);
  }
  if (
    route.pattern === "/api/threads/[id]/files/[...path]" ||
    route.pattern === "/share/[token]/files/[...path]"
  ) {
    return [{ path: "notes/a.md", body: method === "GET" ? undefined : {} }];
  }
  throw new Error(
    `${route.file}: no sample paths for [...${name}]; add some in tests/support/routes.ts`,
  );
}

function dynamicValue(route: RouteFile, index: number, name: string, victim: Victim): string {
  const before = route.segments[index - 1];
  const parent = before?.kind === "static" ? before.value : "";
  if (parent === "threads" || parent === "chat") return victim.threadId;
  if (parent === "tokens") return victim.tokenId;
  if (parent === "handoffs") return victim.handoffKey;
  if (parent === "share") return victim.shareToken;
  if (parent === "runs") return victim.runId ?? randomUUID();
  if (parent === "pins") return victim.pinId ?? randomUUID();
  if (parent === "profiles") return victim.profileId;
  if (parent === "tool-servers") return victim.toolServerId ?? randomUUID();
  throw new Error(
    `${route.file}: no sample value for [${name}] after "${parent}"; add one in tests/support/routes.ts`,
  );
}

const artifact = { goal: "forged goal", state_summary: "forged summary" };

/** A valid body for each known route; `{}` for any route added later. */
function bodyFor(pattern: string, method: HttpMethod, victim: Victim): unknown[] {
  const userMessage = (text: string) => ({
    id: randomUUID(),
    role: "user",
    parts: [{ type: "text", text }],
  });
  switch (`${method} ${pattern}`) {
    case "POST /api/chat":
      return [
        { trigger: "submit-message", id: victim.threadId, message: userMessage("forged message") },
        { trigger: "submit-message", id: randomUUID(), message: userMessage("forged new thread") },
      ];
    case "PATCH /api/threads/[id]":
      return [{ title: "forged title" }];
    case "POST /api/threads/[id]/reset":
    case "POST /api/threads/[id]/reset/cancel":
      return [{ fromSession: 1 }];
    case "POST /api/threads/[id]/pins":
      return [{ text: "forged pin" }];
    case "POST /api/threads/[id]/reset/commit":
      return [{ fromSession: 1, draft: artifact }];
    case "POST /api/handoffs":
      return [{ key: "forged-key", artifact }];
    case "POST /api/handoffs/import":
      return [
        {
          format: "markdown",
          key: "forged-import",
          markdown: "# Handoff: forged goal\n## State summary\nforged summary\n",
        },
      ];
    case "POST /api/handoffs/[key]/accept":
      return [{ id: victim.handoffId, receiver: "forged receiver" }];
    case "POST /api/handoffs/[key]/continue":
      return [{ threadId: randomUUID() }];
    case "POST /api/handoffs/[key]/cancel":
      return [{ id: victim.handoffId }];
    case "POST /api/tokens":
      return [{ name: "forged token", scopes: ["read", "write", "groom"] }];
    case "POST /api/profiles":
      return [{ id: "forged-agent", name: "Forged agent", systemPrompt: "forged prompt" }];
    case "PATCH /api/profiles/[slug]":
      return [{ name: "forged name", systemPrompt: "forged prompt" }];
    case "POST /api/tool-servers":
      return [{ slug: "forged-server", url: "https://forged.invalid/mcp", token: "forged-token" }];
    case "PATCH /api/tool-servers/[id]":
      return [{ url: "https://forged.invalid/mcp", token: null }];
    case "POST /api/mcp":
      return [
        {
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "write_handoff", arguments: { key: "forged-mcp", artifact } },
        },
      ];
    case "DELETE /api/threads/[id]":
    case "POST /api/threads/[id]/share":
    case "DELETE /api/threads/[id]/share":
    case "DELETE /api/threads/[id]/pins/[pinId]":
    case "DELETE /api/handoffs/[key]":
    case "POST /api/handoffs/groom":
    case "DELETE /api/tokens/[id]":
    case "DELETE /api/profiles/[slug]":
    case "DELETE /api/mcp":
    case "DELETE /api/tool-servers/[id]":
    case "POST /api/tool-servers/[id]/refresh":
      return [undefined];
    default:
      return method === "GET" || method === "HEAD" ? [undefined] : [{}];
  }
}

/** The query parameters each GET route reads, with valid values. */
function queryFor(pattern: string): Record<string, string> {
  switch (pattern) {
    case "/api/threads":
      return { limit: "30" };
    case "/api/threads/[id]":
    case "/share/[token]/messages":
      return { beforeSeq: "1000", limit: "50" };
    case "/api/handoffs":
      return { project: "p", repo: "r", state: "prepared", limit: "20" };
    case "/api/handoffs/[key]":
      return { revision: "1" };
    case "/api/handoffs/export":
      return { key: "forged-key", format: "json" };
    case "/api/threads/[id]/runs":
      return { request: randomUUID() };
    case "/api/threads/[id]/files/[...path]":
    case "/share/[token]/files/[...path]":
      return { version: "1" };
    default:
      return {};
  }
}

/** Concrete requests for every (route, method) of the app, one or more each. */
export function routeCases(victim: Victim, routes: RouteFile[] = listRouteFiles()): RouteCase[] {
  const cases: RouteCase[] = [];
  for (const route of routes) {
    for (const method of route.methods) {
      const parts: string[] = [];
      const params: Record<string, string | string[]> = {};
      let catchAll: { name: string } | null = null;
      for (const [index, segment] of route.segments.entries()) {
        if (segment.kind === "static") parts.push(segment.value);
        else if (segment.kind === "dynamic") {
          const value = dynamicValue(route, index, segment.name, victim);
          params[segment.name] = value;
          parts.push(encodeURIComponent(value));
        } else catchAll = { name: segment.name };
      }
      const base = `/${parts.join("/")}`;
      const query = method === "GET" ? queryFor(route.pattern) : undefined;
      if (catchAll) {
        const { name } = catchAll;
        const calls = catchAllCalls(route, method, name, victim);
        for (const call of calls) {
          cases.push({
            route,
            method,
            label: `${method} ${route.pattern} ${call.path}`,
            path: `${base}/${call.path}`,
            params: { ...params, [name]: call.path.split("/") },
            body: method === "GET" ? undefined : call.body,
            query,
          });
        }
        continue;
      }
      const bodies = bodyFor(route.pattern, method, victim);
      bodies.forEach((body, i) => {
        cases.push({
          route,
          method,
          label: `${method} ${route.pattern}${bodies.length > 1 ? ` #${i + 1}` : ""}`,
          path: base,
          params,
          body,
          query,
        });
      });
    }
  }
  return cases;
}

export function isStateChanging(method: HttpMethod): boolean {
  return STATE_CHANGING.includes(method);
}

/**
 * Cases in an order where one that wrongly succeeds spoils as little as possible for the rest:
 * deletions after everything else, and ending the victim's sessions last of all.
 */
export function destructiveLast(cases: RouteCase[]): RouteCase[] {
  const rank = (c: RouteCase) =>
    /sign-out|revoke-sessions/.test(c.label)
      ? 3
      : /sign-in|sign-up/.test(c.label)
        ? 2
        : c.method === "DELETE"
          ? 1
          : 0;
  return [...cases].sort((a, b) => rank(a) - rank(b));
}
