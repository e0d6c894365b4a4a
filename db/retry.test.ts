// Which failures count as a lost connection, and what one retry does with them. The real thing
// (terminated Postgres backends) is exercised in tests/db/db-faults.test.ts.
import { DrizzleQueryError } from "drizzle-orm/errors";
import type postgres from "postgres";
import { describe, expect, it } from "vitest";
import {
  connectionLostCode,
  databaseUnavailableCode,
  retryOnLostConnection,
  withConnectionRetry,
} from "./retry";

const coded = (code: string, message = "boom") => Object.assign(new Error(message), { code });
const wrapped = (cause: unknown) =>
  new DrizzleQueryError("insert into messages values ($1)", ["my secret message"], cause as Error);

describe("connectionLostCode", () => {
  it.each([
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
  ])("%s is a lost connection, bare or inside Drizzle's error", (code) => {
    expect(connectionLostCode(coded(code))).toBe(code);
    expect(connectionLostCode(wrapped(coded(code)))).toBe(code);
  });

  it.each([
    ["a unique violation", coded("23505")],
    ["a serialization failure", coded("40001")],
    ["a syntax error inside Drizzle's error", wrapped(coded("42601"))],
    ["a refused connection (nothing to retry on)", coded("ECONNREFUSED")],
    ["an error without a code", new Error("terminating connection")],
    ["a string", "57P01"],
    ["null", null],
  ])("%s is not", (_, error) => {
    expect(connectionLostCode(error)).toBeNull();
  });

  it("finds the code in a failed connect's AggregateError", () => {
    const error = new AggregateError([coded("ECONNRESET")], "connect failed");
    expect(connectionLostCode(error)).toBe("ECONNRESET");
  });
});

describe("databaseUnavailableCode", () => {
  it("covers lost and unreachable connections, nothing else", () => {
    expect(databaseUnavailableCode(wrapped(coded("57P01")))).toBe("57P01");
    expect(databaseUnavailableCode(coded("ECONNREFUSED"))).toBe("ECONNREFUSED");
    expect(databaseUnavailableCode(coded("CONNECT_TIMEOUT"))).toBe("CONNECT_TIMEOUT");
    expect(databaseUnavailableCode(wrapped(coded("23505")))).toBeNull();
  });
});

/** Work that fails with the given errors, in order, then succeeds; counts its attempts. */
function flaky(...failures: unknown[]) {
  let attempts = 0;
  const work = async () => {
    attempts++;
    const failure = failures[attempts - 1];
    if (failure) throw failure;
    return `done on attempt ${attempts}`;
  };
  return { work, attempts: () => attempts };
}

describe("retryOnLostConnection", () => {
  const quiet = { delayMs: 0, log: () => {} };

  it("runs the work once more after a lost connection", async () => {
    const { work, attempts } = flaky(wrapped(coded("57P01")));
    await expect(retryOnLostConnection("transaction", work, quiet)).resolves.toBe(
      "done on attempt 2",
    );
    expect(attempts()).toBe(2);
  });

  it("retries only once: a second loss is the caller's error", async () => {
    const second = coded("CONNECTION_CLOSED");
    const { work, attempts } = flaky(coded("57P01"), second);
    await expect(retryOnLostConnection("statement", work, quiet)).rejects.toBe(second);
    expect(attempts()).toBe(2);
  });

  it("never retries any other failure", async () => {
    const conflict = wrapped(coded("23505"));
    const { work, attempts } = flaky(conflict);
    await expect(retryOnLostConnection("statement", work, quiet)).rejects.toBe(conflict);
    expect(attempts()).toBe(1);
  });

  it("logs the code and the kind of work, never the query or its values", async () => {
    const lines: string[] = [];
    const { work } = flaky(wrapped(coded("57P01")), wrapped(coded("57P01")));
    await expect(
      retryOnLostConnection("transaction", work, { delayMs: 0, log: (l) => lines.push(l) }),
    ).rejects.toThrow();
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      expect(line).toContain("57P01");
      expect(line).toContain("transaction");
      expect(line).not.toMatch(/secret|insert|params/);
    }
  });
});

describe("withConnectionRetry", () => {
  /** Stand-ins for postgres.js clients sharing one script of outcomes; queries are lazy, as real ones are. */
  function fakeClients(failures: unknown[]) {
    const calls: string[] = [];
    let opened = 0;
    let ended = 0;
    const attempt = (what: string, value: unknown) => {
      calls.push(what);
      const failure = failures.shift();
      return failure ? Promise.reject(failure) : Promise.resolve(value);
    };
    const open = () => {
      const client = opened++;
      return {
        options: { parsers: {} as Record<string, unknown>, serializers: {} },
        unsafe: (query: string) => ({
          // biome-ignore lint/suspicious/noThenProperty: postgres.js queries are thenables.
          then: (ok: never, fail: never) =>
            attempt(`${client}: rows ${query}`, [{ a: 1 }]).then(ok, fail),
          values: () => attempt(`${client}: values ${query}`, [[1]]),
        }),
        reserve: async () => ({
          unsafe: (statement: string) => {
            if (statement.startsWith("commit")) return attempt(`${client}: commit`, null);
            calls.push(`${client}: ${statement.trim()}`);
            return Promise.resolve();
          },
          release: () => calls.push(`${client}: release`),
        }),
        end: async () => {
          ended++;
        },
      } as unknown as postgres.Sql;
    };
    return { open, calls, counts: () => ({ opened, ended }) };
  }

  it("retries statements and a whole transaction, each on a new client", async () => {
    // Each attempt takes the next entry: a failure, or nothing (it succeeds).
    const { open, calls, counts } = fakeClients([
      coded("57P01"),
      undefined,
      coded("ECONNRESET"),
      undefined,
      coded("EPIPE"),
    ]);
    const sql = withConnectionRetry(open, { delayMs: 0, log: () => {} });
    // Drizzle tunes the first client's parsers; every later client gets the same.
    sql.options.parsers[1184] = "transparent" as never;
    await expect(sql.unsafe("select 1")).resolves.toEqual([{ a: 1 }]);
    await expect(sql.unsafe("select 2").values()).resolves.toEqual([[1]]);
    let runs = 0;
    await expect(sql.begin(async () => ++runs)).resolves.toBe(2);
    expect(calls).toEqual([
      "0: rows select 1",
      "1: rows select 1",
      "1: values select 2",
      "2: values select 2",
      "2: begin",
      "2: commit",
      // The lost transaction is neither rolled back nor released: its connection is gone.
      "3: begin",
      "3: commit",
      "3: release",
    ]);
    expect(counts()).toEqual({ opened: 4, ended: 3 });
    expect(sql.options.parsers[1184]).toBe("transparent");
  });

  it("rolls back and releases a transaction that failed for any other reason, without a retry", async () => {
    const { open, calls, counts } = fakeClients([]);
    const sql = withConnectionRetry(open, { delayMs: 0, log: () => {} });
    const conflict = coded("23505");
    await expect(
      sql.begin(async () => {
        throw conflict;
      }),
    ).rejects.toBe(conflict);
    expect(calls).toEqual(["0: begin", "0: rollback", "0: release"]);
    expect(counts()).toEqual({ opened: 1, ended: 0 });
  });
});
