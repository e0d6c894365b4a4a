// The MCP endpoint driven by the official SDK client over Streamable HTTP; the client's fetch
// hands each request straight to the route handler.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { DELETE, GET, POST } from "@/app/api/mcp/route";
import { listUserApiTokens, revokeUserApiToken } from "@/lib/handoff-api/api-tokens";
import { guestHeaders } from "../support/auth";
import { getHandoff, tokenFor, userWithToken } from "./handoff-support";

const MCP_URL = "http://127.0.0.1:3000/api/mcp";
const clients: Client[] = [];

async function routeFetch(url: string | URL, init?: RequestInit): Promise<Response> {
  const request = new Request(url, init);
  if (request.method === "POST") return POST(request);
  if (request.method === "GET") return GET(request);
  if (request.method === "DELETE") return DELETE(request);
  return new Response(null, { status: 405 });
}

async function connect(token: string): Promise<Client> {
  const client = new Client({ name: "baton-test-agent", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(MCP_URL), {
    fetch: routeFetch,
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

function json(result: unknown): Record<string, unknown> {
  const content = (result as CallToolResult).content;
  const first = content[0];
  if (first?.type !== "text") throw new Error("expected a text result");
  return JSON.parse(first.text) as Record<string, unknown>;
}

function errorText(result: unknown): string {
  const r = result as CallToolResult;
  expect(r.isError).toBe(true);
  const first = r.content[0];
  return first?.type === "text" ? first.text : "";
}

describe("MCP /api/mcp", () => {
  it("lists the five handoff tools, each described for the agent using it", async () => {
    const { token } = await userWithToken();
    const client = await connect(token);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      "delete_handoff",
      "get_handoff",
      "list_handoffs",
      "write_handoff",
      "write_handoff_markdown",
    ]);
    const write = tools.find((t) => t.name === "write_handoff");
    expect(write?.description).toMatch(/retry-safe/i);
    expect(write?.description).toMatch(/revision/);
    expect(Object.keys(write?.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(["key", "revision", "artifact"]),
    );
    expect(write?.inputSchema.required).toEqual(expect.arrayContaining(["key", "artifact"]));
    expect(tools.find((t) => t.name === "delete_handoff")?.description).toMatch(/groom/);
    // Written for agents: no storage details or internal identifiers.
    for (const tool of tools) {
      expect(tool.description ?? "").not.toMatch(/uuid|database|table|column|owner_id|sha256/i);
    }
  });

  it("round-trips write → get → list → delete", async () => {
    const { token, headers } = await userWithToken();
    const client = await connect(token);
    const artifact = {
      goal: "Migrate billing",
      state_summary: "Schema drafted",
      remaining_tasks: [{ id: "t1", task: "Backfill invoices" }],
      must_preserve: ["never touch the 2019 ledger"],
    };

    const written = await client.callTool({
      name: "write_handoff",
      arguments: { key: "billing-migration", artifact, project: "billing" },
    });
    expect(written.isError).toBeFalsy();
    const stored = json(written);
    expect(stored).toMatchObject({
      outcome: "stored",
      handoff: { key: "billing-migration", revision: 1, state: "prepared", project: "billing" },
    });
    const handoff = stored.handoff as Record<string, unknown>;
    expect(handoff).not.toHaveProperty("thread_id");
    expect(handoff).not.toHaveProperty("created_by");
    // The same call again (a retried tool call) is recognised, not stored twice.
    const retried = json(
      await client.callTool({
        name: "write_handoff",
        arguments: { key: "billing-migration", artifact, project: "billing" },
      }),
    );
    expect(retried).toMatchObject({
      outcome: "duplicate",
      handoff: { revision: 1, id: handoff.id },
    });
    // A revision that is not newer is refused as stale.
    const stale = await client.callTool({
      name: "write_handoff",
      arguments: {
        key: "billing-migration",
        revision: 1,
        artifact: { goal: "x", state_summary: "y" },
      },
    });
    expect(errorText(stale)).toMatch(/^conflict:stale_revision/);

    const read = json(
      await client.callTool({ name: "get_handoff", arguments: { key: "billing-migration" } }),
    );
    expect(read).toMatchObject({ key: "billing-migration", revision: 1, id: handoff.id });
    expect((read.artifact as { must_preserve: string[] }).must_preserve).toEqual([
      "never touch the 2019 ledger",
    ]);
    // What the agent wrote is what the REST API returns.
    expect((await getHandoff(headers, "billing-migration")).body).toMatchObject({
      id: handoff.id,
      created_by: expect.stringMatching(/^token:/),
    });

    const listed = json(
      await client.callTool({ name: "list_handoffs", arguments: { project: "billing" } }),
    );
    expect(listed).toMatchObject({
      handoffs: [{ key: "billing-migration", goal: "Migrate billing", state: "prepared" }],
      next_cursor: null,
    });

    const deleted = await client.callTool({
      name: "delete_handoff",
      arguments: { key: "billing-migration" },
    });
    expect(json(deleted)).toEqual({ deleted: "billing-migration" });
    expect(
      errorText(
        await client.callTool({ name: "get_handoff", arguments: { key: "billing-migration" } }),
      ),
    ).toMatch(/^not_found:handoff/);
    expect(json(await client.callTool({ name: "list_handoffs", arguments: {} }))).toEqual({
      handoffs: [],
      next_cursor: null,
    });
  });

  it("refuses delete with a token lacking the groom scope, and keeps the handoff", async () => {
    const { userId, token } = await userWithToken(["read", "write"]);
    const client = await connect(token);
    await client.callTool({
      name: "write_handoff",
      arguments: { key: "keep-me", artifact: { goal: "g", state_summary: "s" } },
    });
    const refused = await client.callTool({
      name: "delete_handoff",
      arguments: { key: "keep-me" },
    });
    expect(errorText(refused)).toMatch(/^forbidden:scope/);
    const fullToken = await tokenFor(userId, ["read"]);
    const reader = await connect(fullToken);
    expect(
      json(await reader.callTool({ name: "get_handoff", arguments: { key: "keep-me" } })),
    ).toMatchObject({
      key: "keep-me",
    });
    // A read-only token cannot write through MCP either.
    const write = await reader.callTool({
      name: "write_handoff",
      arguments: { key: "nope", artifact: { goal: "g", state_summary: "s" } },
    });
    expect(errorText(write)).toMatch(/^forbidden:scope/);
  });

  it("write_handoff_markdown takes the markdown write shape: a card is its artifact, other text is kept", async () => {
    const { token, headers } = await userWithToken();
    const client = await connect(token);
    const card =
      "# Handoff: Ship the exporter\n## State summary\nJSON done\n## Next step\nMarkdown\n";
    const written = json(
      await client.callTool({
        name: "write_handoff_markdown",
        arguments: { handoff_key: "md-card", project: "baton", repo: "acme/baton", body: card },
      }),
    );
    expect(written).toMatchObject({
      outcome: "stored",
      handoff: {
        key: "md-card",
        project: "baton",
        artifact: { goal: "Ship the exporter", state_summary: "JSON done", next_step: "Markdown" },
      },
    });
    expect(written).not.toHaveProperty("saved_as_text");
    const text = "Stopped at the backfill; check the cron job.";
    const notes = json(
      await client.callTool({
        name: "write_handoff_markdown",
        arguments: { handoff_key: "md-notes", body: text },
      }),
    );
    expect(notes.saved_as_text).toMatch(/Not a handoff card/);
    const stored = (await getHandoff(headers, "md-notes")).body;
    expect(stored).toMatchObject({ markdown: text, artifact: { state_summary: text } });
    const bad = await client.callTool({
      name: "write_handoff_markdown",
      arguments: { handoff_key: "groom", body: text },
    });
    expect(bad.isError).toBe(true);
  });

  it("rejects invalid tool input without storing anything", async () => {
    const { token, headers } = await userWithToken();
    const client = await connect(token);
    const bad = await client.callTool({
      name: "write_handoff",
      arguments: { key: "bad key", artifact: { goal: "g" } },
    });
    expect(bad.isError).toBe(true);
    expect((await getHandoff(headers, "bad-key")).status).toBe(404);
  });

  it("needs a bearer token: none, a cookie, or a revoked one is 401", async () => {
    const init = {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    };
    const none = await POST(new Request(MCP_URL, init));
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toMatch(/^Bearer/);
    const cookie = await guestHeaders();
    const withCookie = await POST(
      new Request(MCP_URL, {
        ...init,
        // From the app's own origin, so the request policy passes and the cookie is judged.
        headers: {
          ...init.headers,
          cookie: cookie.get("cookie") ?? "",
          origin: cookie.get("origin") ?? "",
          host: cookie.get("host") ?? "",
        },
      }),
    );
    expect(withCookie.status).toBe(401);
    const bogus = await POST(
      new Request(MCP_URL, {
        ...init,
        headers: { ...init.headers, authorization: "Bearer bt_nope" },
      }),
    );
    expect(bogus.status).toBe(401);
    expect(((await bogus.json()) as { error: { code: string } }).error.code).toBe(
      "unauthorized:token",
    );
    const { userId, token } = await userWithToken();
    const revoked = await tokenFor(userId, ["read"]);
    const [row] = (await listUserApiTokens({ userId })).filter((t) => t.scopes.join() === "read");
    await revokeUserApiToken({ userId, tokenId: row?.id ?? "" });
    const afterRevoke = await POST(
      new Request(MCP_URL, {
        ...init,
        headers: { ...init.headers, authorization: `Bearer ${revoked}` },
      }),
    );
    expect(afterRevoke.status).toBe(401);
    const get = await GET(new Request(MCP_URL, { headers: { authorization: `Bearer ${token}` } }));
    expect(get.status).toBe(405);
  });
});
