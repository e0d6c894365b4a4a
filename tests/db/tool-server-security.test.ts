// The two promises of tool-server connections: the token is never shown back (no API response,
// no log line, no table row in plain text), and only public addresses are reached — private,
// loopback, link-local and metadata addresses are refused, by literal, by name and after a
// redirect, unless the operator allowed the host.
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb, rowsOf } from "@/db/client";
import { checkTarget, guardedFetch } from "@/lib/connections/ssrf";
import { runChatTurn } from "@/lib/runs/turn";
import { parseSse, waitForStoredReplies } from "../support/chat";
import { startToolServer, type TestToolServer } from "../support/mcp-tool-server";
import { api as profileApi } from "../support/profiles";
import { dbHashes } from "../support/route-call";
import { signedInWithTools } from "../support/tool-servers";

const TOKEN = "mcp_secret_Zq81fP0wLx3VnT6cYb";

let guarded: TestToolServer;
const printed: string[] = [];
const restore: (() => void)[] = [];

function capture(target: object, name: string) {
  const holder = target as Record<string, unknown>;
  const original = holder[name] as (...args: unknown[]) => unknown;
  holder[name] = (...args: unknown[]) => {
    printed.push(args.map((a) => (typeof a === "string" ? a : String(a))).join(" "));
    return original.apply(target, args);
  };
  restore.push(() => {
    holder[name] = original;
  });
}

beforeAll(async () => {
  guarded = await startToolServer({ token: TOKEN });
  process.env.BATON_MCP_ALLOWED_HOSTS = `127.0.0.1:${guarded.port}`;
  process.env.BATON_LOCAL_DELAY_MS = "0";
  process.env.BATON_LOG_LEVEL = "debug";
  capture(process.stdout, "write");
  capture(process.stderr, "write");
  for (const name of ["log", "info", "warn", "error", "debug"]) capture(console, name);
});
afterAll(async () => {
  for (const undo of restore.splice(0)) undo();
  process.env.BATON_LOG_LEVEL = "warn";
  delete process.env.BATON_MCP_ALLOWED_HOSTS;
  await guarded.stop();
});

/** Every row of every table, as text. */
async function everyRowAsText(): Promise<string[]> {
  const tables = rowsOf<{ schema: string; name: string }>(
    await getDb().execute(sql`
      select table_schema as schema, table_name as name from information_schema.tables
      where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')
        and table_schema not like 'pg_%'`),
  );
  expect(tables.some((t) => t.name === "tool_servers")).toBe(true);
  const out: string[] = [];
  for (const { schema, name } of tables) {
    const rows = rowsOf<{ row: string }>(
      await getDb().execute(sql.raw(`select r::text as row from "${schema}"."${name}" r`)),
    );
    for (const { row } of rows) out.push(row);
  }
  return out;
}

describe("the token is never shown back", () => {
  it("in no API response, no log line and no table, through a whole life and a run", async () => {
    const { headers, api, userId } = await signedInWithTools();
    const responses: string[] = [];
    const created = await api.create({ slug: "guarded", url: guarded.url, token: TOKEN });
    expect(created.status, created.text).toBe(201);
    expect(created.body.server.tools.length).toBeGreaterThan(0);
    const id = created.body.server.id;
    responses.push(created.text);
    responses.push((await api.list()).text);
    responses.push((await api.get(id)).text);
    responses.push((await api.patch(id, { readOnlyTools: ["echo"] })).text);
    responses.push((await api.refresh(id)).text);
    responses.push((await api.patch(id, { token: TOKEN })).text);
    // A failure whose text the server made (it answers 401 to the wrong token).
    responses.push((await api.patch(id, { token: `${TOKEN}x` })).text);
    responses.push((await api.patch(id, { token: TOKEN })).text);

    // A run that calls the tool with the token.
    await profileApi(headers, userId).create({
      id: "tooled",
      name: "Tooled",
      systemPrompt: "Use the tools.",
      tools: { allow: ["mcp:guarded/echo"] },
    });
    const actor = { id: userId, isAnonymous: true, email: null, name: "guest" };
    const threadId = randomUUID();
    const response = await runChatTurn({
      actor,
      request: {
        trigger: "submit-message",
        id: threadId,
        profile: "tooled",
        message: {
          id: randomUUID(),
          role: "user",
          parts: [{ type: "text", text: 'call mcp__guarded__echo {"text":"ping"}' }],
        },
      },
      signal: new AbortController().signal,
      deps: {},
    });
    const stream = await response.text();
    await waitForStoredReplies(actor, threadId);
    responses.push(stream);
    expect(JSON.stringify(parseSse(stream))).toContain('"content":"ping"');
    // The server did get it, as a bearer token.
    expect(guarded.authorizations).toContain(`Bearer ${TOKEN}`);

    for (const text of responses) expect(text).not.toContain(TOKEN);
    expect(printed.length).toBeGreaterThan(0);
    for (const line of printed) expect(line).not.toContain(TOKEN);
    const rows = await everyRowAsText();
    expect(rows.some((row) => row.includes(id))).toBe(true);
    for (const row of rows) expect(row).not.toContain(TOKEN);
  });
});

describe("only public addresses are reached", () => {
  const refused: [string, string, RegExp][] = [
    ["a private IPv4 address", "http://10.0.0.1/mcp", /refused: 10\.0\.0\.1 is a private address/],
    [
      "the metadata address",
      "http://169.254.169.254/latest",
      /refused: 169\.254\.169\.254 is a link-local address/,
    ],
    ["IPv6 loopback", "http://[::1]:8080/mcp", /refused: ::1 is a loopback address/],
    [
      "an IPv4-mapped IPv6 address",
      "http://[::ffff:10.0.0.1]/mcp",
      /refused: ::ffff:a00:1 is a private address/,
    ],
    [
      "a name that resolves to loopback",
      "http://localhost:9/mcp",
      /refused: localhost resolves to/,
    ],
    ["a loopback address not on the allow-list", "http://127.0.0.1:9/mcp", /loopback address/],
  ];

  it.each(refused)("%s is a 400 on url that stores nothing", async (_label, url, message) => {
    const { api } = await signedInWithTools();
    const before = await dbHashes();
    const res = await api.create({ slug: "nope", url });
    expect(res.status).toBe(400);
    expect(res.body.error.fields.url.join(" ")).toMatch(message);
    expect(await dbHashes()).toEqual(before);
  });

  it("an allowed host that redirects to the metadata address is refused at the redirect", async () => {
    const redirecting = await startToolServer({ redirectTo: "http://169.254.169.254/latest/" });
    process.env.BATON_MCP_ALLOWED_HOSTS = `127.0.0.1:${redirecting.port}`;
    try {
      const { api } = await signedInWithTools();
      const res = await api.create({ slug: "hop", url: redirecting.url });
      expect(res.status).toBe(201);
      expect(res.body.server.tools).toEqual([]);
      expect(res.body.server.lastError).toMatch(
        /refused: 169\.254\.169\.254 is a link-local address/,
      );
    } finally {
      process.env.BATON_MCP_ALLOWED_HOSTS = `127.0.0.1:${guarded.port}`;
      await redirecting.stop();
    }
  });

  it("redirects are followed at most three times", async () => {
    // A relative Location: the server sends every request back to itself.
    const looping = await startToolServer({ redirectTo: "/again" });
    try {
      const fetch = guardedFetch({ allowedHosts: [`127.0.0.1:${looping.port}`] });
      await expect(fetch(looping.url, { method: "POST", body: "{}" })).rejects.toThrow(
        "refused: more than 3 redirects",
      );
      expect(looping.authorizations.length).toBe(4);
    } finally {
      await looping.stop();
    }
  });

  it("a name is judged by every address it resolves to", async () => {
    const url = new URL("http://tools.example.test/mcp");
    const lookup = (addresses: string[]) => async () =>
      addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
    await expect(
      checkTarget(url, { allowedHosts: [], lookup: lookup(["10.1.2.3"]) }),
    ).rejects.toThrow("refused: tools.example.test resolves to 10.1.2.3, a private address");
    await expect(
      checkTarget(url, { allowedHosts: [], lookup: lookup(["93.184.216.34", "fd12::1"]) }),
    ).rejects.toThrow(/resolves to fd12::1, a unique-local address/);
    await expect(
      checkTarget(url, { allowedHosts: [], lookup: lookup(["93.184.216.34"]) }),
    ).resolves.toEqual([{ address: "93.184.216.34", family: 4 }]);
    // Allowed by name: reachable whatever it resolves to.
    await expect(
      checkTarget(url, { allowedHosts: ["tools.example.test"], lookup: lookup(["10.1.2.3"]) }),
    ).resolves.toBeNull();
  });
});
