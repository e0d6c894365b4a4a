// MCP tool servers over /api/tool-servers with real guest sessions and a real MCP server: the
// tool list is read on create (every page), changes and refreshes; bad bodies are 400s that
// store nothing; one user never reaches another's servers; a server that cannot be reached is
// stored with its failure; a token sealed under an old secret is reported unreadable.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startToolServer, type TestToolServer } from "../support/mcp-tool-server";
import { dbHashes } from "../support/route-call";
import { signedInWithTools } from "../support/tool-servers";

const ALL_TOOLS = ["echo", "add", "fail", "image", "big", "slow"];
const names = (server: { tools: { name: string }[] }) => server.tools.map((t) => t.name);

let tools: TestToolServer;
let guarded: TestToolServer;
const TOKEN = "tok_live_7Hq2mZpX9vLw3RbN";

beforeAll(async () => {
  tools = await startToolServer();
  guarded = await startToolServer({ token: TOKEN });
  process.env.BATON_MCP_ALLOWED_HOSTS = `127.0.0.1:${tools.port}, 127.0.0.1:${guarded.port}`;
});
afterAll(async () => {
  delete process.env.BATON_MCP_ALLOWED_HOSTS;
  await tools.stop();
  await guarded.stop();
});

describe("the tool-server API", () => {
  it("adds a server with every page of its tools, lists, changes and deletes it", async () => {
    const { api } = await signedInWithTools();
    const created = await api.create({ slug: "demo", url: tools.url });
    expect(created.status, created.text).toBe(201);
    const server = created.body.server;
    expect(server).toMatchObject({
      slug: "demo",
      url: tools.url,
      tokenState: "none",
      lastError: null,
    });
    // Two tools a page: the client followed nextCursor to the end.
    expect(names(server)).toEqual(ALL_TOOLS);
    expect(server.tools[0]).toEqual({
      name: "echo",
      description: "Echoes the text back.",
      readOnly: false,
    });
    expect(Date.parse(server.toolsFetchedAt)).not.toBeNaN();

    const listed = await api.list();
    expect(listed.status).toBe(200);
    expect(listed.body.servers).toEqual([server]);
    expect((await api.get(server.id)).body.server).toEqual(server);

    const patched = await api.patch(server.id, { readOnlyTools: ["add", "echo", "add"] });
    expect(patched.status, patched.text).toBe(200);
    const readOnly = patched.body.server.tools
      .filter((t: { readOnly: boolean }) => t.readOnly)
      .map((t: { name: string }) => t.name);
    expect(readOnly).toEqual(["echo", "add"]);

    const removed = await api.remove(server.id);
    expect(removed.status).toBe(204);
    expect((await api.get(server.id)).status).toBe(404);
    expect((await api.list()).body.servers).toEqual([]);
    expect((await api.remove(server.id)).status).toBe(404);
  });

  it("a slug the user already has is a 409 that stores nothing", async () => {
    const { api } = await signedInWithTools();
    expect((await api.create({ slug: "demo", url: tools.url })).status).toBe(201);
    const before = await dbHashes();
    const again = await api.create({ slug: "demo", url: tools.url });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("conflict:tool_server_exists");
    expect(await dbHashes()).toEqual(before);
  });

  it("another user's server is a 404 to every route and stays as it was", async () => {
    const owner = await signedInWithTools();
    const other = await signedInWithTools();
    const { server } = (await owner.api.create({ slug: "mine", url: tools.url })).body;
    const before = await dbHashes();
    expect((await other.api.list()).body.servers).toEqual([]);
    for (const res of [
      await other.api.get(server.id),
      await other.api.patch(server.id, { readOnlyTools: [] }),
      await other.api.refresh(server.id),
      await other.api.remove(server.id),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("not_found:tool_server");
    }
    expect(await dbHashes()).toEqual(before);
    expect((await owner.api.get(server.id)).body.server).toEqual(server);
    // The same slug is free for the other user.
    expect((await other.api.create({ slug: "mine", url: tools.url })).status).toBe(201);
  });

  it("a malformed id is a 404", async () => {
    const { api } = await signedInWithTools();
    expect((await api.get("not-a-uuid")).status).toBe(404);
  });
});

describe("bad input is a 400 that stores nothing", () => {
  const url = () => tools.url;
  const cases: [string, () => unknown, string][] = [
    ["no slug", () => ({ url: url() }), "slug"],
    ["an uppercase slug", () => ({ slug: "Demo", url: url() }), "slug"],
    ["a slug starting with a hyphen", () => ({ slug: "-demo", url: url() }), "slug"],
    ["a slug of 33 characters", () => ({ slug: `d${"x".repeat(32)}`, url: url() }), "slug"],
    ["a slug with an underscore", () => ({ slug: "my_tools", url: url() }), "slug"],
    ["no url", () => ({ slug: "demo" }), "url"],
    ["not a URL", () => ({ slug: "demo", url: "tools" }), "url"],
    ["an ftp URL", () => ({ slug: "demo", url: "ftp://example.com/mcp" }), "url"],
    ["credentials in the URL", () => ({ slug: "demo", url: "https://u:p@example.com/" }), "url"],
    [
      "a URL of 2001 characters",
      () => ({ slug: "demo", url: `https://e.com/${"x".repeat(1990)}` }),
      "url",
    ],
    ["a token with a space", () => ({ slug: "demo", url: url(), token: "a b" }), "token"],
    ["an empty token", () => ({ slug: "demo", url: url(), token: "" }), "token"],
    ["a token that is not a string", () => ({ slug: "demo", url: url(), token: 7 }), "token"],
    ["an unknown key", () => ({ slug: "demo", url: url(), name: "Demo" }), "name"],
    ["a list", () => [{ slug: "demo", url: url() }], "(body)"],
  ];

  it.each(cases)("POST with %s", async (_label, body, field) => {
    const { api } = await signedInWithTools();
    const before = await dbHashes();
    const res = await api.create(body());
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("bad_request:body");
    expect(Object.keys(res.body.error.fields)).toContain(field);
    expect(await dbHashes()).toEqual(before);
  });

  it("POST with a body that is not JSON", async () => {
    const { api } = await signedInWithTools();
    const before = await dbHashes();
    expect((await api.create("{not json")).status).toBe(400);
    expect(await dbHashes()).toEqual(before);
  });

  const patches: [string, unknown, string][] = [
    ["nothing", {}, "(body)"],
    ["a tool the server did not list", { readOnlyTools: ["echo", "rm"] }, "readOnlyTools"],
    ["a tool name with a space", { readOnlyTools: ["two words"] }, "readOnlyTools.0"],
    ["read-only tools that are not a list", { readOnlyTools: "echo" }, "readOnlyTools"],
    ["a token that is a number", { token: 42 }, "token"],
    ["an http URL of another scheme", { url: "file:///etc/passwd" }, "url"],
    ["a refused address", { url: "http://10.0.0.1/mcp" }, "url"],
    ["an unknown key", { slug: "other" }, "slug"],
  ];

  it.each(patches)("PATCH with %s", async (_label, body, field) => {
    const { api } = await signedInWithTools();
    const { server } = (await api.create({ slug: "demo", url: tools.url })).body;
    const before = await dbHashes();
    const res = await api.patch(server.id, body);
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.error.fields)).toContain(field);
    expect(await dbHashes()).toEqual(before);
  });
});

describe("tokens, failures and refreshes", () => {
  it("a server that needs a token is stored with the failure, and works once given one", async () => {
    const { api } = await signedInWithTools();
    const created = await api.create({ slug: "guarded", url: guarded.url });
    expect(created.status).toBe(201);
    expect(created.body.server).toMatchObject({ tokenState: "none", tools: [] });
    expect(created.body.server.lastError).toMatch(/needs a token \(HTTP 401\)/);

    const seen = guarded.authorizations.length;
    const patched = await api.patch(created.body.server.id, { token: TOKEN });
    expect(patched.status).toBe(200);
    expect(patched.body.server).toMatchObject({ tokenState: "stored", lastError: null });
    expect(names(patched.body.server)).toEqual(ALL_TOOLS);
    expect(guarded.authorizations.slice(seen).every((a) => a === `Bearer ${TOKEN}`)).toBe(true);

    const wrong = await api.patch(created.body.server.id, { token: "not-the-token" });
    expect(wrong.body.server.lastError).toMatch(/refused the token \(HTTP 401\)/);
    // The tools listed with the good token are kept.
    expect(names(wrong.body.server)).toEqual(ALL_TOOLS);

    const cleared = await api.patch(created.body.server.id, { token: null });
    expect(cleared.body.server.tokenState).toBe("none");
  });

  it("a refresh re-lists; a failed one keeps the stored tools and answers lastError", async () => {
    const own = await startToolServer();
    process.env.BATON_MCP_ALLOWED_HOSTS = `127.0.0.1:${own.port}`;
    try {
      const { api } = await signedInWithTools();
      const { server } = (await api.create({ slug: "own", url: own.url })).body;
      const again = await api.refresh(server.id);
      expect(again.status).toBe(200);
      expect(again.body.server).toMatchObject({ lastError: null, tools: server.tools });
      expect(Date.parse(again.body.server.toolsFetchedAt)).toBeGreaterThanOrEqual(
        Date.parse(server.toolsFetchedAt),
      );

      await own.stop();
      const failed = await api.refresh(server.id);
      expect(failed.status).toBe(200);
      expect(failed.body.server.lastError).toMatch(
        /could not reach 127\.0\.0\.1:\d+: connection refused/,
      );
      expect(failed.body.server.tools).toEqual(server.tools);
      expect(failed.body.server.toolsFetchedAt).toBe(again.body.server.toolsFetchedAt);
      expect((await api.list()).body.servers[0].lastError).toBe(failed.body.server.lastError);
    } finally {
      process.env.BATON_MCP_ALLOWED_HOSTS = `127.0.0.1:${tools.port}, 127.0.0.1:${guarded.port}`;
      await own.stop();
    }
  });

  it("after the auth secret changes the token is unreadable until it is entered again", async () => {
    const { api } = await signedInWithTools();
    const { server } = (await api.create({ slug: "guarded", url: guarded.url, token: TOKEN })).body;
    expect(server).toMatchObject({ tokenState: "stored", lastError: null });
    const original = process.env.BETTER_AUTH_SECRET;
    process.env.BETTER_AUTH_SECRET = "another-secret-after-rotation-0123456789abcdef";
    try {
      const listed = (await api.list()).body.servers[0];
      expect(listed.tokenState).toBe("unreadable");
      expect(listed.lastError).toMatch(/enter the token again/);
      // Nothing is sent to the server without a token it can use.
      const seen = guarded.authorizations.length;
      const refreshed = await api.refresh(server.id);
      expect(refreshed.body.server.tokenState).toBe("unreadable");
      expect(guarded.authorizations.length).toBe(seen);

      const entered = await api.patch(server.id, { token: TOKEN });
      expect(entered.body.server).toMatchObject({ tokenState: "stored", lastError: null });
      expect(names(entered.body.server)).toEqual(ALL_TOOLS);
    } finally {
      process.env.BETTER_AUTH_SECRET = original;
    }
  });
});
