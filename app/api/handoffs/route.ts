import { listHandoffs, readHandoff, upsertHandoff } from "@/lib/handoff-api/handoffs";
import { upsertBodyOf } from "@/lib/handoff-api/markdown-body";
import { listQuerySchema, writeBodySchema } from "@/lib/handoff-api/schemas";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

/** A page of records; with `?key=` (and `revision`) one record, reserved route words included. */
export const GET = route(
  { auth: "api:read", query: listQuerySchema, rateLimit: "api" },
  async ({ identity, query }) => {
    if (query.key !== undefined) {
      return Response.json(
        await readHandoff(identity, { key: query.key, revision: query.revision }),
      );
    }
    return Response.json(await listHandoffs(identity, query));
  },
);

/**
 * Upsert: 201 stored, 200 a retry of a stored revision (its original record), 409 stale. The body
 * is `{key, revision?, artifact, …}` or `{handoff_key, project, repo, kind, body}` with markdown;
 * a markdown body that is not the card's format is stored as the state summary, and the answer
 * says so in `Baton-Markdown-Unparsed`.
 */
export const POST = route(
  { auth: "api:write", body: writeBodySchema, rateLimit: "api" },
  async ({ identity, body: write }) => {
    const { body, problem } = upsertBodyOf(write);
    const { created, record } = await upsertHandoff(identity, body);
    const headers = problem ? { "baton-markdown-unparsed": problem } : undefined;
    return Response.json(record, { status: created ? 201 : 200, headers });
  },
);
