// Records every SQL statement the app sends while a callback runs: the process-wide database
// handle is swapped for one over the same client with a Drizzle logger, then restored. Also runs
// EXPLAIN on a recorded statement with its recorded parameters.
import type { PGlite } from "@electric-sql/pglite";
import type { Logger } from "drizzle-orm";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import type postgres from "postgres";
import type { Database, DatabaseHandle } from "@/db/client";
import * as schema from "@/db/schema";

export interface Statement {
  query: string;
  params: unknown[];
}

const holder = globalThis as unknown as { batonDb?: DatabaseHandle };

function clientOf(handle: DatabaseHandle): unknown {
  return (handle.db as unknown as { $client: unknown }).$client;
}

/** `statements` (optional) is filled as they are sent, for a caller that looks mid-way. */
export async function recordStatements<T>(
  run: () => Promise<T>,
  statements: Statement[] = [],
): Promise<{ result: T; statements: Statement[] }> {
  const own = holder.batonDb;
  if (!own) throw new Error("no database is open");
  const logger: Logger = { logQuery: (query, params) => void statements.push({ query, params }) };
  const client = clientOf(own);
  const db =
    own.kind === "pglite"
      ? drizzlePglite(client as PGlite, { schema, logger })
      : drizzlePostgres(client as postgres.Sql, { schema, logger });
  holder.batonDb = { ...own, db: db as unknown as Database };
  try {
    return { result: await run(), statements };
  } finally {
    holder.batonDb = own;
  }
}

/** The plan Postgres would use for a recorded statement, as its text lines. */
export async function explain(statement: Statement): Promise<string> {
  const own = holder.batonDb;
  if (!own) throw new Error("no database is open");
  const text = `explain ${statement.query}`;
  const client = clientOf(own);
  const rows =
    own.kind === "pglite"
      ? (await (client as PGlite).query<Record<string, string>>(text, statement.params)).rows
      : await (client as postgres.Sql).unsafe<Record<string, string>[]>(
          text,
          statement.params as postgres.ParameterOrJSON<never>[],
        );
  return rows.map((row) => Object.values(row)[0]).join("\n");
}
