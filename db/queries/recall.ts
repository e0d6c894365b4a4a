import "server-only";
import { sql } from "drizzle-orm";
import type { Executor } from "../executor";
import {
  handoffRevisions,
  messages,
  SEARCH_TEXT_CHARS,
  sessions,
  threads,
  workspaceFileVersions,
} from "../schema";

// Full-text search over a thread's history (search_history): its messages outside the current
// session (text and tool outputs), the versions of its workspace files not made in it, and its
// handoff revisions but the one the current session started from (that brief is in view). Each source has a generated `search_tsv` column with a GIN index; a query is parsed
// with websearch_to_tsquery('english', …), so quotes, `or` and `-word` work and punctuation or
// stop words alone match nothing. Scoped to the thread's owner: another user's thread finds
// nothing. The text of the best hits is returned whole (cut to SEARCH_TEXT_CHARS) for the caller
// to redact before it cuts snippets from it (headlines below), so a snippet never shows half a
// secret the redactor could no longer recognise.

type RecallSource = "message" | "file" | "handoff";

export interface RecallHit {
  source: RecallSource;
  /** The session the text belongs to (for a handoff, the session whose reset wrote it). */
  sessionNumber: number | null;
  messageId: string | null;
  role: string | null;
  path: string | null;
  version: number | null;
  revision: number | null;
  rank: number;
  text: string;
}

export interface RecallScope {
  userId: string;
  threadId: string;
  /** The session in progress: its messages are in the model's context already. */
  currentSessionId: string;
}

function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : ((result as { rows?: unknown[] }).rows ?? [])) as T[];
}

/** True when the query has no searchable word at all (only stop words or punctuation). */
export async function queryHasTerms(db: Executor, query: string): Promise<boolean> {
  const [row] = rowsOf<{ n: number }>(
    await db.execute(sql`select numnode(websearch_to_tsquery('english', ${query}))::int as n`),
  );
  return Number(row?.n ?? 0) > 0;
}

/** The best `limit` hits for `query`, best first. */
export async function searchThreadHistory(
  db: Executor,
  scope: RecallScope,
  query: string,
  limit: number,
): Promise<RecallHit[]> {
  const cut = sql.raw(String(SEARCH_TEXT_CHARS));
  // The tsquery is written out in each branch (not read from a CTE) so the planner sees a
  // constant and can use the GIN index, together with the thread's index (a BitmapAnd) for a
  // selective query; the owner check is a one-time filter.
  const tsq = sql`websearch_to_tsquery('english', ${query})`;
  const owned = sql`exists (select 1 from ${threads} t
                             where t.id = ${scope.threadId} and t.user_id = ${scope.userId})`;
  const result = await db.execute(sql`
    with hits as (
      (select 'message' as source, m.id as key, null::int as version,
              ts_rank(m.search_tsv, ${tsq}) as rank, m.seq as ord
         from ${messages} m
        where ${owned} and m.thread_id = ${scope.threadId}
          and m.session_id <> ${scope.currentSessionId} and m.search_tsv @@ ${tsq})
      union all
      (select 'file', v.path, v.version, ts_rank(v.search_tsv, ${tsq}), v.version
         from ${workspaceFileVersions} v
        where ${owned} and v.thread_id = ${scope.threadId}
          and (v.session_id is null or v.session_id <> ${scope.currentSessionId})
          and v.search_tsv @@ ${tsq})
      union all
      (select 'handoff', r.id::text, r.revision, ts_rank(r.search_tsv, ${tsq}), r.revision
         from ${handoffRevisions} r
        where ${owned} and r.thread_id = ${scope.threadId} and r.search_tsv @@ ${tsq}
          and r.id is distinct from (select s.handoff_revision_id from ${sessions} s
                                      where s.id = ${scope.currentSessionId}))
      order by rank desc, ord desc
      limit ${limit}
    )
    select h.source, h.rank,
           coalesce(ms.number, vs.number, r.session_number) as "sessionNumber",
           m.id as "messageId", m.role,
           v.path, v.version, r.revision,
           case h.source
             when 'message' then left(baton_message_text(m.parts), ${cut})
             when 'file' then left(v.path || ' ' || coalesce(v.content, ''), ${cut})
             else left(r.markdown, ${cut})
           end as text
      from hits h
      left join ${messages} m
        on h.source = 'message' and m.thread_id = ${scope.threadId} and m.id = h.key
      left join ${sessions} ms on ms.id = m.session_id
      left join ${workspaceFileVersions} v
        on h.source = 'file' and v.thread_id = ${scope.threadId} and v.path = h.key
           and v.version = h.version
      left join ${sessions} vs on vs.id = v.session_id
      left join ${handoffRevisions} r
        on h.source = 'handoff'
           and r.id = (case when h.source = 'handoff' then h.key::uuid end)
     order by h.rank desc, h.ord desc`);
  return rowsOf<RecallHit & { rank: number | string }>(result).map((row) => ({
    ...row,
    rank: Number(row.rank),
    sessionNumber: row.sessionNumber === null ? null : Number(row.sessionNumber),
    version: row.version === null ? null : Number(row.version),
    revision: row.revision === null ? null : Number(row.revision),
    text: row.text ?? "",
  }));
}

/**
 * Cuts a short headline around the query's matches from each text (already redacted), with the
 * matched words between « and ». One statement for all texts; order kept.
 */
export async function headlines(db: Executor, query: string, texts: string[]): Promise<string[]> {
  if (texts.length === 0) return [];
  const result = await db.execute(sql`
    select u.ord::int as ord,
           ts_headline('english', u.t, websearch_to_tsquery('english', ${query}),
             'StartSel=«, StopSel=», MaxWords=30, MinWords=12, MaxFragments=2, FragmentDelimiter=" … "')
             as headline
      from jsonb_array_elements_text(${JSON.stringify(texts)}::jsonb) with ordinality as u(t, ord)
     order by u.ord`);
  const rows = rowsOf<{ ord: number; headline: string }>(result);
  return texts.map((_, i) => rows.find((r) => Number(r.ord) === i + 1)?.headline ?? "");
}
