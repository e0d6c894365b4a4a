// An agent run that uses a real MCP tool server: the offline model's `call mcp__demo__<tool>`
// asks for approval (unless the tool is read-only), runs after it, reads isError and images as
// tool results, spills a large result, and a stopped server is a tool error the run survives.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getToolServer } from "@/db/queries/tool-servers";
import type { Actor } from "@/lib/auth/server";
import { runChatTurn } from "@/lib/runs/turn";
import { parseSse, replyText, type SsePart, waitForStoredReplies } from "../support/chat";
import { PNG_BYTES, startToolServer, type TestToolServer } from "../support/mcp-tool-server";
import { api as profileApi } from "../support/profiles";
import {
  answerApproval,
  messageAwaitingApproval,
  toolOutputs,
  withApprovalAnswer,
} from "../support/runs";
import { signedInWithTools, type ToolServerApi } from "../support/tool-servers";

let tools: TestToolServer;
beforeAll(async () => {
  tools = await startToolServer();
});
afterAll(() => tools.stop());
beforeEach(() => {
  process.env.BATON_LOCAL_DELAY_MS = "0";
  process.env.BATON_LOCAL_CONTEXT_WINDOW = "16384";
  process.env.BATON_MCP_ALLOWED_HOSTS = `127.0.0.1:${tools.port}`;
});

interface Setup {
  actor: Actor;
  servers: ToolServerApi;
  serverId: string;
}

/** A guest with the `demo` server and an agent `tooled` allowed every demo tool. */
async function setup(url = tools.url, allow = ["mcp:demo/*"]): Promise<Setup> {
  const { headers, api, userId } = await signedInWithTools();
  const created = await api.create({ slug: "demo", url });
  expect(created.status, created.text).toBe(201);
  const profile = await profileApi(headers, userId).create({
    id: "tooled",
    name: "Tooled",
    systemPrompt: "Use the tools.",
    tools: { allow: ["read_file", ...allow] },
  });
  expect(profile.status, JSON.stringify(profile.body)).toBe(201);
  return {
    actor: { id: userId, isAnonymous: true, email: null, name: "guest" },
    servers: api,
    serverId: created.body.server.id,
  };
}

async function turn(actor: Actor, threadId: string, text: string): Promise<SsePart[]> {
  const response = await runChatTurn({
    actor,
    request: {
      trigger: "submit-message",
      id: threadId,
      profile: "tooled",
      message: { id: randomUUID(), role: "user", parts: [{ type: "text", text }] },
    },
    signal: new AbortController().signal,
    deps: {},
  });
  expect(response.status).toBe(200);
  const parts = parseSse(await response.text());
  await waitForStoredReplies(actor, threadId);
  return parts;
}

const asksApproval = (parts: SsePart[]) => parts.some((p) => p.type === "tool-approval-request");

async function approve(actor: Actor, threadId: string, approved = true) {
  const waiting = await messageAwaitingApproval(actor, threadId);
  if (!waiting) throw new Error("no approval request stored");
  return answerApproval(actor, threadId, withApprovalAnswer(waiting, approved));
}

describe("MCP tools in a run", () => {
  it("asks before calling an effectful tool, then calls it and reads the result", async () => {
    const { actor } = await setup();
    const threadId = randomUUID();
    const before = tools.calls.length;
    const asked = await turn(actor, threadId, 'call mcp__demo__echo {"text":"hi"}');
    expect(asksApproval(asked)).toBe(true);
    expect(tools.calls.length).toBe(before);

    const answered = await approve(actor, threadId);
    // The answer's stream carries the result of the call the first stream asked about.
    const results = answered.filter((p) => p.type === "tool-output-available");
    expect(results.map((p) => (p as { output?: unknown }).output)).toEqual([
      { ok: true, content: "hi" },
    ]);
    expect(replyText(answered)).toContain("hi");
    expect(tools.calls.slice(before)).toEqual([{ name: "echo", args: { text: "hi" } }]);
  });

  it("Allow for this session lets the next call of that tool run without asking", async () => {
    const { actor } = await setup();
    const threadId = randomUUID();
    await turn(actor, threadId, 'call mcp__demo__echo {"text":"one"}');
    const waiting = await messageAwaitingApproval(actor, threadId);
    if (!waiting) throw new Error("no approval request stored");
    await answerApproval(actor, threadId, withApprovalAnswer(waiting, true), {
      allowForSession: true,
    });
    const again = await turn(actor, threadId, 'call mcp__demo__echo {"text":"two"}');
    expect(asksApproval(again)).toBe(false);
    expect(toolOutputs(again, "mcp__demo__echo")).toEqual([{ ok: true, content: "two" }]);
    // The grant is for that tool only.
    const other = await turn(actor, threadId, 'call mcp__demo__add {"a":1,"b":1}');
    expect(asksApproval(other)).toBe(true);
  });

  it("a denied call never reaches the server", async () => {
    const { actor } = await setup();
    const threadId = randomUUID();
    const before = tools.calls.length;
    await turn(actor, threadId, 'call mcp__demo__add {"a":2,"b":3}');
    const answered = await approve(actor, threadId, false);
    expect(answered.some((p) => p.type === "tool-output-denied")).toBe(true);
    expect(tools.calls.length).toBe(before);
  });

  it("a tool marked read-only runs without approval", async () => {
    const { actor, servers, serverId } = await setup();
    const marked = await servers.patch(serverId, { readOnlyTools: ["add"] });
    expect(marked.status, marked.text).toBe(200);
    const parts = await turn(actor, randomUUID(), 'call mcp__demo__add {"a":2,"b":3}');
    expect(asksApproval(parts)).toBe(false);
    expect(toolOutputs(parts, "mcp__demo__add")).toEqual([{ ok: true, content: "5" }]);
  });

  it("only the allowed tools are offered", async () => {
    const { actor } = await setup(tools.url, ["mcp:demo/add"]);
    const parts = await turn(actor, randomUUID(), 'call mcp__demo__echo {"text":"hi"}');
    expect(toolOutputs(parts, "mcp__demo__echo")).toEqual([]);
    expect(asksApproval(parts)).toBe(false);
  });

  it("isError is a tool error, an image is described in text", async () => {
    const { actor, servers, serverId } = await setup();
    await servers.patch(serverId, { readOnlyTools: ["fail", "image"] });
    const failed = await turn(actor, randomUUID(), "call mcp__demo__fail {}");
    expect(toolOutputs(failed, "mcp__demo__fail")).toEqual([
      { ok: false, error: "the widget is broken" },
    ]);
    expect(replyText(failed)).toContain("the widget is broken");
    const image = await turn(actor, randomUUID(), "call mcp__demo__image {}");
    expect(toolOutputs(image, "mcp__demo__image")).toEqual([
      { ok: true, content: `here is the picture\n[image: image/png, ${PNG_BYTES} bytes]` },
    ]);
  });

  it("a large result is spilled to the workspace", async () => {
    const { actor, servers, serverId } = await setup();
    await servers.patch(serverId, { readOnlyTools: ["big"] });
    const parts = await turn(actor, randomUUID(), 'call mcp__demo__big {"lines":2000}');
    const [output] = toolOutputs(parts, "mcp__demo__big") as { spilled?: boolean; path?: string }[];
    expect(output?.spilled).toBe(true);
    expect(output?.path).toMatch(/^\.baton\/results\//);
  });

  it("a stopped server is a tool error; the run finishes and the stored tools stay", async () => {
    const own = await startToolServer();
    process.env.BATON_MCP_ALLOWED_HOSTS = `127.0.0.1:${own.port}`;
    const { actor, servers, serverId } = await setup(own.url);
    await servers.patch(serverId, { readOnlyTools: ["echo"] });
    const stored = await getToolServer({ userId: actor.id, id: serverId });
    await own.stop();
    const parts = await turn(actor, randomUUID(), 'call mcp__demo__echo {"text":"hi"}');
    const [output] = toolOutputs(parts, "mcp__demo__echo") as { ok: boolean; error: string }[];
    expect(output?.ok).toBe(false);
    expect(output?.error).toMatch(/could not reach 127\.0\.0\.1:\d+: connection refused/);
    expect(parts.some((p) => p.type === "finish")).toBe(true);
    expect(parts.some((p) => p.type === "error")).toBe(false);
    const after = await getToolServer({ userId: actor.id, id: serverId });
    expect(after?.tools).toEqual(stored?.tools);
    expect(after?.toolsFetchedAt).toEqual(stored?.toolsFetchedAt);
  });

  it("a server the address policy now refuses is a tool error, and nothing is sent", async () => {
    const { actor, servers, serverId } = await setup();
    await servers.patch(serverId, { readOnlyTools: ["echo"] });
    delete process.env.BATON_MCP_ALLOWED_HOSTS;
    const before = tools.calls.length;
    const parts = await turn(actor, randomUUID(), 'call mcp__demo__echo {"text":"hi"}');
    expect(toolOutputs(parts, "mcp__demo__echo")).toEqual([
      {
        ok: false,
        error:
          "The tool server demo could not run the tool: refused: 127.0.0.1 is a loopback address.",
      },
    ]);
    expect(tools.calls.length).toBe(before);
  });
});
