// Connection faults on Postgres: a statement or transaction that failed because its connection
// was terminated (an administrator's pg_terminate_backend, a restart, a dropped socket) is run
// once more on a fresh connection. It is done here, around the postgres.js client Drizzle is
// handed, so no call site has to know: a statement (`unsafe`) is retried alone, a transaction
// (`begin`) as a whole, its callback re-run from the start. Statements inside a transaction run
// on the transaction's own connection, which this wrapper never sees, so they are never retried
// on their own. If the retry fails too, the error surfaces and the route maps it to a 503.
import type postgres from "postgres";

/**
 * The codes of a connection that is gone: SQLSTATE admin_shutdown, crash_shutdown,
 * cannot_connect_now and the connection_exception class, postgres.js's own connection codes,
 * and the socket errors a dead peer produces.
 */
const CONNECTION_LOST = new Set([
  "57P01",
  "57P02",
  "57P03",
  "08000",
  "08003",
  "08006",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "ECONNRESET",
  "EPIPE",
]);

/** Also answered with a 503, but not retried: the database could not be reached at all. */
const UNREACHABLE = new Set(["08001", "ECONNREFUSED", "CONNECT_TIMEOUT"]);

/**
 * The codes carried by an error and its causes: Drizzle wraps the driver's error in a
 * DrizzleQueryError whose `cause` is the original, and a failed connect may be an AggregateError.
 */
function codesOf(error: unknown, depth = 0): string[] {
  if (depth > 5 || typeof error !== "object" || error === null) return [];
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown };
  const own = typeof code === "string" ? [code] : [];
  const nested = Array.isArray(errors) ? errors.flatMap((e) => codesOf(e, depth + 1)) : [];
  return [...own, ...codesOf(cause, depth + 1), ...nested];
}

/** The code that marks `error` as a lost connection (worth one retry), else null. */
export function connectionLostCode(error: unknown): string | null {
  return codesOf(error).find((code) => CONNECTION_LOST.has(code)) ?? null;
}

/** The code that marks `error` as "the database is unavailable" (a 503), else null. */
export function databaseUnavailableCode(error: unknown): string | null {
  return codesOf(error).find((code) => CONNECTION_LOST.has(code) || UNREACHABLE.has(code)) ?? null;
}

export type WorkKind = "statement" | "transaction";

export interface RetryOptions {
  /**
   * The pause before the retry. One termination usually closes every connection of the pool at
   * once; the pause lets the client see the other sockets close, so the retry gets a connection
   * that is really new rather than an idle one whose close is still unread.
   */
  delayMs?: number;
  /** Where the one-line notes go; they hold the code and the kind of work, never SQL or values. */
  log?: (line: string) => void;
}

const DEFAULT_RETRY_DELAY_MS = 50;

const warn = (line: string) => console.warn(line);

/** Runs `work`; if it failed on a lost connection, runs it once more and returns that outcome. */
export async function retryOnLostConnection<T>(
  kind: WorkKind,
  work: () => Promise<T>,
  { delayMs = DEFAULT_RETRY_DELAY_MS, log = warn }: RetryOptions = {},
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const code = connectionLostCode(error);
    if (!code) throw error;
    log(`[baton] database connection lost (${code}) during a ${kind}; retrying it once`);
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    try {
      return await work();
    } catch (again) {
      const code = connectionLostCode(again);
      if (code) log(`[baton] database connection lost again (${code}) during a ${kind}`);
      throw again;
    }
  }
}

/**
 * What `unsafe()` returns, as far as Drizzle uses it: awaited for row objects, or `.values()`
 * awaited for row arrays. postgres.js queries are lazy (they run when awaited), so each attempt
 * builds the query anew; each form runs at most once however often it is awaited.
 */
interface RetriedQuery extends PromiseLike<unknown> {
  values(): Promise<unknown>;
}

type TransactionSql = postgres.ReservedSql & {
  savepoint: <T>(fn: (sql: TransactionSql) => Promise<T>) => Promise<T>;
};

/**
 * A transaction on a reserved connection, as postgres.js's `begin` runs it, but one that knows
 * a lost connection: its transaction died with the backend, so nothing is rolled back and the
 * connection is not released. postgres.js's own `begin` sends ROLLBACK on the dead connection,
 * and its deferred write to the closed socket is an uncaught exception that ends the process;
 * releasing it would put a closed connection back among the open ones (the pool already took
 * it back as closed, to be reconnected).
 */
async function transaction<T>(
  client: postgres.Sql,
  mode: string,
  fn: (sql: TransactionSql) => Promise<T>,
): Promise<T> {
  const sql = (await client.reserve()) as TransactionSql;
  let lost = false;
  const unlessLost = async (statement: string) => {
    if (lost) return;
    await sql.unsafe(statement).catch((error: unknown) => {
      lost ||= connectionLostCode(error) !== null;
    });
  };
  let savepoints = 0;
  sql.savepoint = async (inner) => {
    const name = `s${++savepoints}`;
    await sql.unsafe(`savepoint ${name}`);
    try {
      const result = await inner(sql);
      await sql.unsafe(`release savepoint ${name}`);
      return result;
    } catch (error) {
      lost ||= connectionLostCode(error) !== null;
      await unlessLost(`rollback to savepoint ${name}`);
      throw error;
    }
  };
  try {
    await sql.unsafe(`begin ${mode.replace(/[^a-z ]/gi, "")}`);
    const result = await fn(sql);
    await sql.unsafe("commit");
    return result;
  } catch (error) {
    lost ||= connectionLostCode(error) !== null;
    await unlessLost("rollback");
    throw error;
  } finally {
    if (!lost) sql.release();
  }
}

/**
 * The postgres.js client with `unsafe` (every statement Drizzle runs outside a transaction) and
 * `begin` (every Drizzle transaction) retried on a lost connection; everything else, including
 * the `options` Drizzle adjusts when it wraps the client, is the current client's own.
 *
 * A lost connection also replaces the whole client with a new one from `open` (the old one ends
 * once its work is done), so the retry runs on a connection that is really new. Reusing the old
 * pool is not safe: postgres.js can leave a connection whose socket closed with a write pending
 * unable to send anything again, so every reconnect of it times out.
 */
export function withConnectionRetry(
  open: () => postgres.Sql,
  options: RetryOptions = {},
): postgres.Sql {
  const first = open();
  let current = first;
  const replaceAfterLoss = (failed: postgres.Sql) => {
    if (failed !== current) return; // another failure already replaced it
    const fresh = open();
    // Drizzle tunes the parsers of the client it is handed; the new client needs the same.
    Object.assign(fresh.options.parsers, failed.options.parsers);
    Object.assign(fresh.options.serializers, failed.options.serializers);
    current = fresh;
    failed.end({ timeout: 5 }).catch(() => {});
  };
  /** Runs `work` on the current client; a lost connection replaces that client first. */
  const onCurrent =
    <T>(work: (client: postgres.Sql) => Promise<T>) =>
    async () => {
      const client = current;
      try {
        return await work(client);
      } catch (error) {
        if (connectionLostCode(error)) replaceAfterLoss(client);
        throw error;
      }
    };
  const unsafe = (...args: Parameters<postgres.Sql["unsafe"]>): RetriedQuery => {
    let rows: Promise<unknown> | undefined;
    let values: Promise<unknown> | undefined;
    return {
      // biome-ignore lint/suspicious/noThenProperty: Drizzle awaits the query object itself.
      then(onFulfilled, onRejected) {
        rows ??= retryOnLostConnection(
          "statement",
          onCurrent(async (client) => client.unsafe(...args)),
          options,
        );
        return rows.then(onFulfilled, onRejected);
      },
      values() {
        values ??= retryOnLostConnection(
          "statement",
          onCurrent(async (client) => client.unsafe(...args).values()),
          options,
        );
        return values;
      },
    };
  };
  const begin = (...args: unknown[]) => {
    const [mode, fn] = (typeof args[0] === "function" ? ["", args[0]] : args) as [
      string,
      (sql: TransactionSql) => Promise<unknown>,
    ];
    return retryOnLostConnection(
      "transaction",
      onCurrent((client) => transaction(client, mode, fn)),
      options,
    );
  };
  return new Proxy(first, {
    get(_target, property) {
      if (property === "unsafe") return unsafe;
      if (property === "begin") return begin;
      return Reflect.get(current, property, current);
    },
    apply(_target, self, args) {
      return Reflect.apply(current, self, args);
    },
  });
}
