// A content hash of every table in the database, read from information_schema (so a table added
// later is covered too): md5 of each table's rows as text, in a stable order. Takes a query
// function so the in-process tests (Drizzle) and e2e specs (postgres.js) share it.

export type QueryRows = (sql: string) => Promise<Record<string, unknown>[]>;

const LIST_TABLES = `
  select table_schema as schema, table_name as name
  from information_schema.tables
  where table_type = 'BASE TABLE'
    and table_schema not in ('pg_catalog', 'information_schema')
    and table_schema not like 'pg_%'
  order by 1, 2`;

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Columns to leave out, by `schema.table`: bookkeeping a legitimate caller changes. */
export type IgnoredColumns = Record<string, string[]>;

/** `{ "public.threads": "<md5 of its rows>", … }` for every table. */
/**
 * Left out always: each running server's heartbeat row changes every couple of seconds whatever
 * requests do, and a live server's sweep marks a server that fell silent as stopped
 * (lib/runtime/instance.ts, lib/runs/recovery.ts).
 */
const PROCESS_BOOKKEEPING: IgnoredColumns = {
  "public.server_instances": ["heartbeat_at", "stopped_at"],
};

export async function tableHashes(
  query: QueryRows,
  extraIgnore: IgnoredColumns = {},
): Promise<Record<string, string>> {
  const ignore = { ...PROCESS_BOOKKEEPING, ...extraIgnore };
  const tables = (await query(LIST_TABLES)) as { schema: string; name: string }[];
  if (tables.length === 0) throw new Error("no tables found: is the database migrated?");
  // One statement: every table's hash as one row, so a check costs one round trip.
  const parts = tables.map(({ schema, name }) => {
    const dropped = (ignore[`${schema}.${name}`] ?? []).map(
      (c) => ` - '${c.replaceAll("'", "''")}'`,
    );
    const row = dropped.length > 0 ? `(to_jsonb(r)${dropped.join("")})::text` : "r::text";
    return (
      `select '${`${schema}.${name}`.replaceAll("'", "''")}' as t, ` +
      `md5(coalesce(string_agg(${row}, E'\\n' order by ${row}), '')) as h, count(*)::int as n ` +
      `from ${quoteIdent(schema)}.${quoteIdent(name)} r`
    );
  });
  const rows = (await query(parts.join(" union all "))) as { t: string; h: string; n: number }[];
  const out: Record<string, string> = {};
  for (const row of rows.sort((a, b) => a.t.localeCompare(b.t))) {
    out[row.t] = `${Number(row.n)} rows ${row.h}`;
  }
  return out;
}

/** The tables whose hash differs between two snapshots, e.g. `["public.threads"]`. */
export function changedTables(
  before: Record<string, string>,
  after: Record<string, string>,
): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((n) => before[n] !== after[n]).sort();
}
