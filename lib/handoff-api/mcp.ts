// The handoff API as MCP tools (official SDK, Streamable HTTP in stateless mode: one server and
// transport per request, bound to the caller's token). Descriptions speak to the agent using them.
import "server-only";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { BatonError } from "@/core/errors";
import { log } from "@/core/log";
import { handoffArtifactSchema } from "@/lib/handoff/artifact";
import { countMcpCall } from "@/lib/metrics";
import { deleteHandoff, listHandoffs, readHandoff, upsertHandoff } from "./handoffs";
import type { ApiIdentity } from "./identity";
import { upsertBodyOf } from "./markdown-body";
import {
  HANDOFF_STATES,
  type HandoffRecord,
  handoffKeySchema,
  markdownWriteBodySchema,
  upsertBodySchema,
} from "./schemas";

const f = handoffArtifactSchema.shape;
const artifactInput = z
  .strictObject({
    goal: f.goal.describe("What the work is for, in one or two sentences."),
    state_summary: f.state_summary.describe("Where things stand right now."),
    completed_work: f.completed_work.describe("Things finished, one per item."),
    in_progress: f.in_progress.describe("Things started but not finished."),
    remaining_tasks: f.remaining_tasks.describe(
      "Open tasks, each with a short stable id (t1, t2, …) and what to do.",
    ),
    key_decisions: f.key_decisions.describe("Decisions made and not to be reopened."),
    confirmed_facts: f.confirmed_facts.describe(
      "Facts verified with evidence. Guesses belong in unknowns.",
    ),
    unknowns: f.unknowns.describe("Open questions and unverified assumptions."),
    must_preserve: f.must_preserve.describe(
      "Pinned items the user wants carried into every later handoff; copy them forward unless the user removed one.",
    ),
    files_modified: f.files_modified.describe("Paths of files changed."),
    last_completed_step: f.last_completed_step.describe("The last step that was completed."),
    next_step: f.next_step.describe("The very next thing to do."),
    needs_authorization: f.needs_authorization.describe(
      "Actions that need the user's explicit approval before anyone does them.",
    ),
  })
  .describe("The handoff itself. Only goal and state_summary are required.");

const keyInput = handoffKeySchema.describe(
  "Names the piece of work, e.g. `billing-migration` or `acme-api:issue-42`. Letters, digits and . _ : - (up to 128 characters). Reusing a key continues the same handoff's history.",
);

const WRITE_DESCRIPTION = `Save a handoff: a structured note that lets a later session, another agent or a person pick up this work without the conversation that produced it.

Use it when you stop, pause, run low on context or pass the work on. Write what the next reader needs: the goal, where things stand, what is done, what remains, decisions, confirmed facts, open questions, and anything pinned in must_preserve (keep those items unless the user removed them).

Each key holds one current handoff and a numbered history. \`revision\` is that number: omit it to write the next revision (or to have an unchanged artifact recognised as already saved); give it when you are writing a specific revision, e.g. after reading revision 3 with get_handoff you write revision 4.

Writes are retry-safe: sending the same key, revision and artifact again returns the saved handoff instead of a copy (outcome "duplicate"). A revision lower than the current one, or the current number with different content, is refused as stale and changes nothing — read the current handoff with get_handoff, merge, and write the next revision.

Secrets (API keys, bearer tokens, passwords, private keys, passwords in connection strings) are masked before saving; the answer lists each masked field.`;

const WRITE_MARKDOWN_DESCRIPTION = `Save a handoff written as markdown text, for when you have notes rather than the structured fields of write_handoff. The body is read as a handoff card (a "# Handoff: <goal>" title, then "## State summary", "## Remaining tasks" and the other sections get_handoff's markdown shows); any other text is saved whole, as the state summary, and nothing is lost.

Each call writes the key's next revision, or is recognised as already saved when the text is unchanged. Secrets are masked before saving.`;

const GET_DESCRIPTION = `Read a handoff by its key: the current revision, or an older one with \`revision\`. Use it before continuing someone's work, and before writing a new revision so you build on the latest one.`;

const LIST_DESCRIPTION = `List your handoffs, most recently updated first, optionally only those of one project or repo, or in one state (prepared = open, not yet taken up; accepted = taken up; cancelled). Each item is a summary: read the full handoff with get_handoff. Pass next_cursor back as \`cursor\` for the next page.`;

const DELETE_DESCRIPTION = `Permanently delete a handoff and its whole history. Only do this when the user asks for it; to set a handoff aside, leave it. Needs a token with the groom scope.`;

/** What an agent sees of a handoff: the content and its place in history, no storage details. */
function agentView(record: HandoffRecord) {
  return {
    key: record.key,
    revision: record.revision,
    id: record.id,
    state: record.state,
    project: record.project,
    repo: record.repo,
    kind: record.kind,
    created_at: record.created_at,
    updated_at: record.updated_at,
    redactions: record.redactions,
    artifact: record.artifact,
  };
}

function answer(value: unknown): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(value, null, 2) }] };
}

async function asTool(run: () => Promise<unknown>): Promise<CallToolResult> {
  countMcpCall("served");
  try {
    return answer(await run());
  } catch (error) {
    if (error instanceof BatonError) {
      return {
        isError: true,
        content: [{ type: "text", text: `${error.code}: ${error.message}` }],
      };
    }
    log.error("mcp tool failed", error);
    return {
      isError: true,
      content: [{ type: "text", text: "internal:server: Something went wrong." }],
    };
  }
}

function createHandoffMcpServer(identity: ApiIdentity): McpServer {
  const server = new McpServer({ name: "baton-handoffs", version: "1.0.0" });

  server.registerTool(
    "write_handoff",
    {
      title: "Write a handoff",
      description: WRITE_DESCRIPTION,
      inputSchema: {
        key: keyInput,
        revision: upsertBodySchema.shape.revision.describe(
          "The revision number to write (1, 2, …). Omit to write the next one.",
        ),
        artifact: artifactInput,
        project: upsertBodySchema.shape.project.describe("Optional project name, for filtering."),
        repo: upsertBodySchema.shape.repo.describe("Optional repository, e.g. acme/api."),
        kind: upsertBodySchema.shape.kind.describe(
          "Optional short label such as task, review or plan (default task).",
        ),
      },
      annotations: { idempotentHint: true, destructiveHint: false },
    },
    (input) =>
      asTool(async () => {
        const { created, record } = await upsertHandoff(identity, upsertBodySchema.parse(input));
        return { outcome: created ? "stored" : "duplicate", handoff: agentView(record) };
      }),
  );

  server.registerTool(
    "write_handoff_markdown",
    {
      title: "Write a handoff as markdown",
      description: WRITE_MARKDOWN_DESCRIPTION,
      inputSchema: {
        handoff_key: keyInput,
        project: markdownWriteBodySchema.shape.project.describe("Optional project name."),
        repo: markdownWriteBodySchema.shape.repo.describe("Optional repository, e.g. acme/api."),
        kind: markdownWriteBodySchema.shape.kind.describe(
          "Optional short label such as task, review or plan (default task).",
        ),
        body: markdownWriteBodySchema.shape.body.describe("The handoff as markdown."),
      },
      annotations: { idempotentHint: true, destructiveHint: false },
    },
    (input) =>
      asTool(async () => {
        const { body, problem } = upsertBodyOf(markdownWriteBodySchema.parse(input));
        const { created, record } = await upsertHandoff(identity, body);
        return {
          outcome: created ? "stored" : "duplicate",
          ...(problem ? { saved_as_text: `Not a handoff card (${problem}).` } : {}),
          handoff: agentView(record),
        };
      }),
  );

  server.registerTool(
    "get_handoff",
    {
      title: "Read a handoff",
      description: GET_DESCRIPTION,
      inputSchema: {
        key: keyInput,
        revision: z
          .number()
          .int()
          .min(1)
          .optional()
          .describe("An older revision to read; omit for the current one."),
      },
      annotations: { readOnlyHint: true },
    },
    ({ key, revision }) =>
      asTool(async () => agentView(await readHandoff(identity, { key, revision }))),
  );

  server.registerTool(
    "list_handoffs",
    {
      title: "List handoffs",
      description: LIST_DESCRIPTION,
      inputSchema: {
        project: z.string().min(1).max(200).optional().describe("Only this project."),
        repo: z.string().min(1).max(500).optional().describe("Only this repository."),
        state: z.enum(HANDOFF_STATES).optional().describe("Only handoffs in this state."),
        cursor: z.string().min(1).max(300).optional().describe("next_cursor from the last page."),
        limit: z.number().int().min(1).max(100).optional().describe("Page size, default 20."),
      },
      annotations: { readOnlyHint: true },
    },
    (input) =>
      asTool(async () => {
        const page = await listHandoffs(identity, { ...input, limit: input.limit ?? 20 });
        return {
          handoffs: page.handoffs.map((h) => ({
            key: h.key,
            revision: h.revision,
            state: h.state,
            project: h.project,
            repo: h.repo,
            kind: h.kind,
            updated_at: h.updated_at,
            goal: h.artifact.goal,
            state_summary: h.artifact.state_summary,
          })),
          next_cursor: page.next_cursor,
        };
      }),
  );

  server.registerTool(
    "delete_handoff",
    {
      title: "Delete a handoff",
      description: DELETE_DESCRIPTION,
      inputSchema: { key: keyInput },
      annotations: { destructiveHint: true, idempotentHint: true },
    },
    ({ key }) =>
      asTool(async () => {
        await deleteHandoff(identity, key);
        return { deleted: key };
      }),
  );

  return server;
}

/** One MCP POST, its caller already authenticated by a bearer token and its body read. */
export async function handleMcpRequest(
  request: Request,
  identity: ApiIdentity,
  parsedBody: unknown,
): Promise<Response> {
  const server = createHandoffMcpServer(identity);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  try {
    await server.connect(transport);
    // JSON response mode: this resolves once every answer of the request is ready.
    return await transport.handleRequest(request, { parsedBody });
  } finally {
    await server.close();
  }
}

/** Stateless: there is no session stream to open (GET) or end (DELETE). */
export function refuseMcpMethod(): Response {
  return Response.json(
    { jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed." }, id: null },
    { status: 405, headers: { allow: "POST" } },
  );
}
