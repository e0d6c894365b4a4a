// Nothing leaked (issue 10, acceptance 5): every secret of the corpus written through a reset
// (the offline model writes the handoff from the conversation), the REST API and MCP is found
// nowhere a secret must not be — any column of handoffs, handoff_revisions and handoff_receipts,
// the stored data-context-reset parts, the share page's data as a visitor's browser gets it, and
// the server's output meanwhile. The look-alikes written the same ways come back byte for byte.
import { randomUUID } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as mcpPost } from "@/app/api/mcp/route";
import { GET as getFile } from "@/app/share/[token]/files/[...path]/route";
import { GET as getFiles } from "@/app/share/[token]/files/route";
import { GET as getMessages } from "@/app/share/[token]/messages/route";
import { GET as getPlan } from "@/app/share/[token]/plan/route";
import { getDb, rowsOf } from "@/db/client";
import { listSessions } from "@/db/queries/sessions";
import type { Actor } from "@/lib/auth/server";
import { createShareLink, loadSharedThreadView } from "@/lib/chat/share";
import { HANDOFF_SCHEMA_VERSION, type HandoffArtifact } from "@/lib/handoff/artifact";
import { contentId } from "@/lib/handoff/content-id";
import { renderHandoffMarkdown } from "@/lib/handoff/markdown";
import { acceptHandoff, writeHandoff } from "@/lib/handoff/write";
import { createActor, sendTurn } from "../support/chat";
import { LOOKALIKE_CASES, SECRET_CASES } from "../support/secret-corpus";
import { createTestUser } from "../support/users";
import {
  acceptHandoff as accept,
  artifactOf,
  countRows,
  getHandoff,
  upsert,
  userWithToken,
} from "./handoff-support";

/** Marks every message this file sends, so its text can be looked for in the output. */
const PROBE = "leakprobe";

// ── what the server printed ──

const printed: string[] = [];
const restore: (() => void)[] = [];

function capture(target: object, name: string): void {
  const holder = target as Record<string, (...args: unknown[]) => unknown>;
  const original = holder[name];
  if (typeof original !== "function") return;
  holder[name] = function (this: unknown, ...args: unknown[]) {
    printed.push(args.map((a) => (typeof a === "string" ? a : safeString(a))).join(" "));
    return original.apply(this, args);
  };
  restore.push(() => {
    holder[name] = original;
  });
}

function safeString(value: unknown): string {
  if (value instanceof Error) return `${value.name}: ${value.message}\n${value.stack ?? ""}`;
  if (value instanceof Uint8Array) return Buffer.from(value).toString("utf8");
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

beforeAll(() => {
  process.env.BATON_LOCAL_DELAY_MS = "0";
  process.env.BATON_LOCAL_HANDOFF_DELAY_MS = "0";
  process.env.BATON_LOCAL_CONTEXT_WINDOW = "1000000";
  process.env.BATON_RATE_LIMIT_API = "100000/60s";
  process.env.BATON_RATE_LIMIT_CHAT = "100000/60s";
  // Every line the server would print, the request and reset records included.
  process.env.BATON_LOG_LEVEL = "debug";
  capture(process.stdout, "write");
  capture(process.stderr, "write");
  for (const name of ["log", "info", "warn", "error", "debug", "trace"]) capture(console, name);
});

afterAll(() => {
  for (const undo of restore.splice(0)) undo();
});

// ── reading everything back ──

/** Every string inside a JSON value, keys included (escaping can hide a value in JSON text). */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") {
    out.push(value);
    // A text column holding JSON (a tool's output) is searched inside too.
    if (/^[[{]/.test(value)) {
      try {
        strings(JSON.parse(value), out);
      } catch {
        // Not JSON after all: searched as it is.
      }
    }
  } else if (Array.isArray(value)) {
    for (const item of value) strings(item, out);
  } else if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      out.push(key);
      strings(item, out);
    }
  }
  return out;
}

async function tableRows(table: string): Promise<unknown[]> {
  const result = await getDb().execute(
    sql.raw(`select row_to_json(t)::text as row from ${table} t`),
  );
  return rowsOf<{ row: string }>(result).map((r) => JSON.parse(r.row));
}

async function storedResetParts(): Promise<unknown[]> {
  const result = await getDb().execute(sql`select parts::text as parts from messages`);
  return rowsOf<{ parts: string }>(result).flatMap((r) =>
    (JSON.parse(r.parts) as { type?: string }[]).filter((p) => p.type === "data-context-reset"),
  );
}

async function handoffTables(): Promise<Record<string, string[]>> {
  return {
    handoffs: strings(await tableRows("handoffs")),
    handoff_revisions: strings(await tableRows("handoff_revisions")),
    handoff_receipts: strings(await tableRows("handoff_receipts")),
    "data-context-reset parts": strings(await storedResetParts()),
  };
}

/** For each place, the corpus cases whose raw secret appears there. */
function leaksIn(places: Record<string, string[]>): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  for (const [place, texts] of Object.entries(places)) {
    const names = SECRET_CASES.filter((c) => texts.some((t) => t.includes(c.secret))).map(
      (c) => c.name,
    );
    if (names.length > 0) found[place] = names;
  }
  return found;
}

type Handler = (request: Request, context: { params: Promise<unknown> }) => Promise<Response>;

async function visitorGet(handler: Handler, path: string, params: Record<string, unknown>) {
  const response = await handler(new Request(`http://baton.test${path}`), {
    params: Promise.resolve(params),
  });
  const text = await response.text();
  expect(response.status, path).toBe(200);
  return JSON.parse(text) as unknown;
}

/** What a visitor's browser receives for the link: the page's data and every share route. */
async function sharePage(token: string): Promise<Record<string, string[]>> {
  const page = await loadSharedThreadView({ token, limit: 200 });
  expect(page).not.toBeNull();
  const messages = await visitorGet(getMessages, `/share/${token}/messages`, { token });
  const files = (await visitorGet(getFiles, `/share/${token}/files`, { token })) as {
    files: { path: string }[];
    toolResults: { path: string }[];
  };
  const fileBodies = [];
  for (const file of [...files.files, ...files.toolResults]) {
    fileBodies.push(
      await visitorGet(getFile, `/share/${token}/files/${file.path}`, {
        token,
        path: file.path.split("/"),
      }),
    );
  }
  expect(fileBodies.length).toBeGreaterThan(0);
  const plan = await visitorGet(getPlan, `/share/${token}/plan`, { token });
  return {
    "share page": strings(page),
    "share messages": strings(messages),
    "share files": strings([files, ...fileBodies]),
    "share plan": strings(plan),
  };
}

// ── writing through each path ──

interface Written {
  threadId: string;
  shareToken: string;
}

/**
 * A thread whose messages hold every text, a file and a plan made of them; then the context
 * window shrinks under the conversation so the next turn resets at the threshold, the way a
 * long conversation does, and stores its data-context-reset part with the handoff.
 */
async function throughReset(actor: Actor, texts: string[]): Promise<Written> {
  const threadId = randomUUID();
  for (const text of texts) await sendTurn(actor, threadId, `remember ${PROBE} ${text}`);
  await sendTurn(actor, threadId, `write notes/${PROBE}.md:\n${texts.join("\n")}`);
  const oneLine = texts.filter((t) => !t.includes("\n") && !t.includes(";"));
  const last = await sendTurn(actor, threadId, `plan:\n${oneLine.map((t) => `- ${t}`).join("\n")}`);
  const reading = last.parts.findLast((p) => p.type === "data-context")?.data as
    | { inputTokens: number; threshold: number }
    | undefined;
  if (!reading) throw new Error("the turn reported no context reading");
  const window = Math.ceil(reading.inputTokens / Math.min(0.99, reading.threshold + 0.1));
  process.env.BATON_LOCAL_CONTEXT_WINDOW = String(window);
  try {
    await sendTurn(actor, threadId, `${PROBE} what do you know?`);
  } finally {
    process.env.BATON_LOCAL_CONTEXT_WINDOW = "1000000";
  }
  const sessions = await listSessions({ userId: actor.id, threadId });
  expect(sessions.map((s) => s.trigger)).toContain("threshold");
  const { token } = await createShareLink({ userId: actor.id, threadId });
  return { threadId, shareToken: token };
}

/** Every field of an artifact carries texts, so each one passes through each field's path. */
function artifactWith(texts: string[]) {
  return artifactOf({
    // One text a line: the high-entropy rule reads a keyword on the token's own line and
    // sentence, and run together a look-alike's "token:" would sit before the next one's payload.
    goal: texts.join("\n"),
    state_summary: texts.join("\n"),
    completed_work: texts,
    in_progress: texts.slice(0, 5),
    remaining_tasks: texts.map((task, i) => ({ id: `t${i + 1}`, task })),
    key_decisions: texts,
    confirmed_facts: texts,
    unknowns: texts.slice(0, 5),
    must_preserve: texts,
    files_modified: [`notes/${PROBE}.md`],
    last_completed_step: texts.at(-1) ?? "",
    next_step: texts[0] ?? "",
    needs_authorization: texts.slice(0, 3),
  });
}

/** Create, update, accept with each text as the receiver, and project/repo/kind set to texts. */
async function throughRest(headers: Headers, key: string, texts: string[]): Promise<void> {
  const created = await upsert(headers, { key, artifact: artifactWith(texts) });
  expect(created.status).toBe(201);
  const updated = await upsert(headers, {
    key,
    artifact: artifactWith([...texts].reverse()),
    project: texts.find((t) => t.length <= 200 && !t.includes("\n")) ?? null,
    repo: texts.find((t) => t.length <= 500 && !t.includes("\n")) ?? null,
  });
  expect(updated.status).toBe(201);
  let id = updated.body.id as string;
  for (const text of texts) {
    // A receiver, project, repo or kind that is a secret may be refused (4xx) or masked: never
    // stored as sent, never a 5xx. Each acceptance names the current revision, so it is stored.
    const accepted = await accept(headers, key, { id, receiver: text.slice(0, 200) });
    expect(accepted.status, text).toBeLessThan(500);
    expect([200, 201, 400]).toContain(accepted.status);
    const envelope = await upsert(headers, {
      key,
      artifact: artifactWith([text, ...texts]),
      project: text.slice(0, 200),
      repo: text.slice(0, 500),
    });
    expect(envelope.status, text).toBeLessThan(500);
    if (envelope.status === 201) id = envelope.body.id as string;
    const kind = await upsert(headers, { key: `${key}-kind`, artifact: artifactOf(), kind: text });
    expect(kind.status, text).toBeLessThan(500);
  }
  // The acceptances above were real: the receipts table holds them.
  expect(await countRows("handoff_receipts")).toBeGreaterThan(0);
}

async function throughMcp(token: string, key: string, texts: string[]): Promise<void> {
  const client = new Client({ name: "leak-test-agent", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL("http://127.0.0.1:3000/api/mcp"), {
    fetch: async (url, init) => mcpPost(new Request(url, init)),
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  try {
    for (const artifact of [artifactWith(texts), artifactWith([...texts].reverse())]) {
      const result = (await client.callTool({
        name: "write_handoff",
        arguments: { key, artifact, project: `${PROBE} project` },
      })) as CallToolResult;
      expect(result.isError ?? false).toBe(false);
    }
  } finally {
    await client.close();
  }
}

// ── the tests ──

describe("redaction everywhere", () => {
  const secrets = SECRET_CASES.map((c) => c.text);

  it("the corpus is the one acceptance names: at least 30 secrets and 15 look-alikes", () => {
    expect(SECRET_CASES.length).toBeGreaterThanOrEqual(30);
    expect(LOOKALIKE_CASES.length).toBeGreaterThanOrEqual(15);
    for (const c of SECRET_CASES) expect(c.text, c.name).toContain(c.secret);
  });

  it("no secret written through a reset, the REST API or MCP is stored, shared or printed", async () => {
    const actor = await createActor();
    const reset = await throughReset(actor, secrets);
    const rest = await userWithToken();
    await throughRest(rest.headers, `${PROBE}-rest`, secrets);
    const mcp = await userWithToken();
    await throughMcp(mcp.token, `${PROBE}-mcp`, secrets);

    // The paths really carried the texts: the stored handoffs hold them, masked.
    const stored = await getHandoff(rest.headers, `${PROBE}-rest`);
    expect(stored.status).toBe(200);
    expect(JSON.stringify(stored.body)).toContain("[REDACTED:");
    const places = { ...(await handoffTables()), ...(await sharePage(reset.shareToken)) };
    // The stored reset part carries the handoff (its masked facts among them).
    expect(places["data-context-reset parts"]?.some((t) => t.includes(PROBE))).toBe(true);
    expect(places["share files"]?.some((t) => t.includes(PROBE))).toBe(true);
    const output = printed.join("\n");
    expect({
      stored: leaksIn(places),
      printed: leaksIn({ "server output": [output] }),
      messageTextPrinted: output.includes(PROBE),
    }).toEqual({ stored: {}, printed: {}, messageTextPrinted: false });
  });

  it("look-alikes written the same ways come back untouched", async () => {
    const texts = LOOKALIKE_CASES.map((c) => c.text);
    const actor = await createActor();
    const reset = await throughReset(actor, texts);
    const rest = await userWithToken();
    await throughRest(rest.headers, `${PROBE}-lookalike-rest`, texts);
    const mcp = await userWithToken();
    await throughMcp(mcp.token, `${PROBE}-lookalike-mcp`, texts);

    const restRecord = await getHandoff(rest.headers, `${PROBE}-lookalike-rest`);
    const mcpRecord = await getHandoff(mcp.headers, `${PROBE}-lookalike-mcp`);
    const resetRecord = (await tableRows("handoff_revisions")).filter(
      (row) => (row as { thread_id?: string }).thread_id === reset.threadId,
    );
    const share = await sharePage(reset.shareToken);
    const places: Record<string, string[]> = {
      "REST record": strings(restRecord.body),
      "MCP record": strings(mcpRecord.body),
      "share messages": share["share messages"] ?? [],
      "share files": share["share files"] ?? [],
    };
    for (const [place, found] of Object.entries(places)) {
      const altered = LOOKALIKE_CASES.filter((c) => !found.some((t) => t.includes(c.text)));
      expect(
        altered.map((c) => c.name),
        place,
      ).toEqual([]);
    }
    // The reset's handoff may trim facts to fit the new session; nothing in it is masked.
    expect(resetRecord.length).toBeGreaterThan(0);
    expect(strings(resetRecord).filter((t) => t.includes("[REDACTED:"))).toEqual([]);
    expect(resetRecord.map((row) => (row as { redactions: unknown }).redactions)).toEqual(
      resetRecord.map(() => []),
    );
    for (const record of [restRecord, mcpRecord]) {
      expect(record.body.redactions).toEqual([]);
    }
  });

  it("a caller that forgets to redact still stores no secret, under an id naming what is stored", async () => {
    // A format every engine masks, so this holds before and after the rule set changes.
    const secret = `ghp_${"Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0Lm9Nb8"}`;
    const ownerId = await createTestUser();
    const key = `${PROBE}-forgetful`;
    const raw: HandoffArtifact = {
      ...artifactWith([`clone with ${secret}`]),
      completed_work: [],
      in_progress: [],
      remaining_tasks: [],
      key_decisions: [],
      confirmed_facts: [`token ${secret}`],
      unknowns: [],
      must_preserve: [],
      files_modified: [],
      last_completed_step: "",
      next_step: "",
      needs_authorization: [],
    };
    const rawId = (revision: number) =>
      contentId({
        schema_version: HANDOFF_SCHEMA_VERSION,
        handoff_key: key,
        revision,
        artifact: raw,
      });
    const written = await getDb().transaction((tx) =>
      writeHandoff(tx, {
        ownerId,
        key,
        artifact: raw,
        markdown: renderHandoffMarkdown(raw),
        contentIdFor: rawId,
        createdBy: "test",
        project: `p ${secret}`,
        repo: `r ${secret}`,
        redactions: [],
      }),
    );
    const stored = written.revision.artifact as unknown as HandoffArtifact;
    expect(JSON.stringify(written)).not.toContain(secret);
    expect(stored.confirmed_facts[0]).toMatch(/^token \[REDACTED:/);
    expect(written.revision.markdown).toBe(renderHandoffMarkdown(stored));
    expect(written.revision.contentId).toBe(
      contentId({
        schema_version: HANDOFF_SCHEMA_VERSION,
        handoff_key: key,
        revision: 1,
        artifact: stored,
      }),
    );
    expect(written.revision.contentId).not.toBe(rawId(1));
    expect(written.revision.redactions.map((r) => r.field)).toEqual(
      expect.arrayContaining(["goal", "confirmed_facts[0]", "project", "repo"]),
    );
    const { receipt } = await getDb().transaction((tx) =>
      acceptHandoff(tx, {
        ownerId,
        key,
        contentId: written.revision.contentId,
        receiver: `agent ${secret}`,
      }),
    );
    expect(receipt.receiver).toMatch(/^agent \[REDACTED:/);
    const rows = strings([
      ...(await tableRows("handoffs")),
      ...(await tableRows("handoff_revisions")),
      ...(await tableRows("handoff_receipts")),
    ]);
    expect(rows.some((t) => t.includes(secret))).toBe(false);
  });
});
