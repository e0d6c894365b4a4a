// search_history: full-text search over the earlier parts of the conversation (before the last
// context resets): its messages and tool results, every earlier version of its workspace files
// and the handoff briefs written at each reset. Read-only. Results are a few short snippets, each
// cited by the part of the conversation it comes from (parts are numbered from 1), redacted like
// everything else the model is sent.
import "server-only";
import { tool, zodSchema } from "ai";
import { z } from "zod";
import { redactText } from "@/core/redact/engine";
import { getDb } from "@/db/client";
import { headlines, queryHasTerms, type RecallHit, searchThreadHistory } from "@/db/queries/recall";
import { asToolResult, failure, type ToolContext } from "./context";

/** At most this many snippets come back. */
const RECALL_MAX_RESULTS = 6;
/** Longer queries are cut to this many characters (and the result says so). */
const RECALL_MAX_QUERY_CHARS = 500;
/** A snippet is cut to this many characters. */
const RECALL_SNIPPET_CHARS = 320;

export interface RecallResult {
  /** Where it was found, for a citation: e.g. `part 2, user message m1`. */
  cite: string;
  source: "message" | "file" | "handoff";
  /** The part of the conversation (numbered from 1); null for a file version made outside one. */
  part: number | null;
  messageId?: string;
  role?: string;
  path?: string;
  version?: number;
  revision?: number;
  /** The text around the match, matched words between « and ». */
  snippet: string;
}

export interface SearchHistoryOutput {
  ok: true;
  query: string;
  count: number;
  results: RecallResult[];
  /** Why there are no results, or that the query was shortened. */
  note?: string;
}

function cite(hit: RecallHit): string {
  const part = hit.sessionNumber === null ? null : `part ${hit.sessionNumber}`;
  if (hit.source === "message") {
    return [part, `${hit.role ?? "a"} message ${hit.messageId}`].filter(Boolean).join(", ");
  }
  if (hit.source === "file") {
    return [part, `file ${hit.path} version ${hit.version}`].filter(Boolean).join(", ");
  }
  return `handoff brief revision ${hit.revision}${part ? `, written at the end of ${part}` : ""}`;
}

function resultOf(hit: RecallHit, snippet: string): RecallResult {
  return {
    cite: cite(hit),
    source: hit.source,
    part: hit.sessionNumber,
    ...(hit.source === "message"
      ? { messageId: hit.messageId ?? "", role: hit.role ?? "" }
      : hit.source === "file"
        ? { path: hit.path ?? "", version: hit.version ?? 0 }
        : { revision: hit.revision ?? 0 }),
    snippet,
  };
}

function clipSnippet(text: string): string {
  const flat = redactText(text.replace(/\s+/g, " ").trim()).text;
  return flat.length <= RECALL_SNIPPET_CHARS ? flat : `${flat.slice(0, RECALL_SNIPPET_CHARS - 1)}…`;
}

// Built once: the SDK turns each into its JSON schema on first use and keeps it.
const searchHistoryInput = zodSchema(
  z.object({
    query: z.string().describe('Words (all must match), "a phrase", or, -word'),
  }),
);

export function createRecallTools(ctx: ToolContext) {
  const db = () => (ctx.db ?? getDb)();
  return {
    search_history: tool({
      description: `Search the earlier parts of this conversation (before context resets): messages, tool results, file versions, briefs. Returns up to ${RECALL_MAX_RESULTS} snippets, each citing its \`part N\`.`,
      inputSchema: searchHistoryInput,
      execute: async ({ query }) =>
        asToolResult<SearchHistoryOutput>(async () => {
          const trimmed = query.replace(/\s+/g, " ").trim();
          if (trimmed === "") return failure("Give some words to search for.");
          const shortened = trimmed.length > RECALL_MAX_QUERY_CHARS;
          // Cut at a word boundary, so the last word is not a fragment that matches nothing.
          const q = shortened
            ? trimmed.slice(0, RECALL_MAX_QUERY_CHARS + 1).replace(/\s+\S*$/, "")
            : trimmed;
          const cutNote = shortened
            ? `The query was cut to its first ${RECALL_MAX_QUERY_CHARS} characters (whole words).`
            : undefined;
          const shown = redactText(q).text;
          if (!(await queryHasTerms(db(), q))) {
            return {
              ok: true,
              query: shown,
              count: 0,
              results: [],
              note: "The query has no words to search for (only common words or punctuation); use distinctive words.",
            };
          }
          const hits = await searchThreadHistory(
            db(),
            { userId: ctx.userId, threadId: ctx.threadId, currentSessionId: ctx.sessionId },
            q,
            RECALL_MAX_RESULTS,
          );
          const cut = await headlines(
            db(),
            q,
            hits.map((hit) => redactText(hit.text).text),
          );
          const results = hits.map((hit, i) => resultOf(hit, clipSnippet(cut[i] ?? "")));
          const none = "Nothing in the earlier parts of this conversation matches.";
          const note = [results.length === 0 ? none : undefined, cutNote].filter(Boolean).join(" ");
          return {
            ok: true,
            query: shown,
            count: results.length,
            results,
            ...(note ? { note } : {}),
          };
        }),
    }),
  };
}
