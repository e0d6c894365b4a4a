import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/pglite";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { formatLog, log, statementOf } from "./log";

const MESSAGE_TEXT = "my grocery list: 12 eggs and the launch codes";
const SECRET = "ghp_R4nd0mT0k3nV4lu3F0rT3st1ngPurp0s3s00";

describe("statementOf", () => {
  it("names the statement kind and its table, never a value", () => {
    expect(statementOf('insert into "messages" ("id", "text") values ($1, $2)')).toBe(
      "insert messages",
    );
    expect(statementOf('update "handoffs" set "markdown" = $1 where "id" = $2')).toBe(
      "update handoffs",
    );
    expect(statementOf('delete from "sessions" where "thread_id" = $1')).toBe("delete sessions");
    expect(statementOf('select "id", "seq" from "messages" where "thread_id" = $1')).toBe(
      "select messages",
    );
    expect(
      statementOf('with moved as (select 1 from "a") update "messages" set "seq" = 1 returning *'),
    ).toBe("update messages");
    expect(statementOf("begin")).toBe("begin");
  });
});

describe("database errors", () => {
  let client: PGlite;
  let caught: unknown;

  beforeAll(async () => {
    client = new PGlite();
    const db = drizzle(client);
    await db.execute(sql`create table notes (id uuid primary key, body text not null)`);
    try {
      await db.execute(
        sql`insert into "notes" ("id", "body") values (${MESSAGE_TEXT}, ${`token ${SECRET}`})`,
      );
    } catch (error) {
      caught = error;
    }
  }, 30_000);
  afterAll(async () => {
    await client?.close();
  });

  it("prints the code and the statement, never the parameters, the SQL or the message", () => {
    expect(caught).toBeInstanceOf(Error);
    // What drizzle itself would print: the whole statement and its parameters.
    expect(String((caught as Error).message)).toContain(MESSAGE_TEXT);
    const line = formatLog("error", "saving a note failed", caught, { thread: "t-1" });
    expect(line.split("\n")[0]).toMatch(/^\[baton\] saving a note failed thread=t-1 error=\S+/);
    expect(line).toContain("query=");
    expect(line).toContain("insert notes");
    expect(line).toContain("22P02"); // invalid_text_representation
    expect(line).not.toContain(MESSAGE_TEXT);
    expect(line).not.toContain("grocery");
    expect(line).not.toContain(SECRET);
    expect(line).not.toContain("values");
    expect(line).not.toContain("params");
    // Stack frames only: every line after the first is a frame.
    for (const frame of line.split("\n").slice(1)) expect(frame).toMatch(/^ {4}at /);
  });

  it("writes one block to stderr for log.error", () => {
    const writes: string[] = [];
    const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
      writes.push(String(chunk));
      return true;
    });
    try {
      log.error("saving a note failed", caught);
    } finally {
      spy.mockRestore();
    }
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatch(/^\[baton\] saving a note failed /);
    expect(writes[0]).not.toContain(MESSAGE_TEXT);
  });
});

describe("other errors", () => {
  it("keeps a short message of ordinary errors, with secrets masked", () => {
    const line = formatLog("warn", "redis unreachable", new Error(`connect failed: ${SECRET}`));
    expect(line).toContain("connect failed");
    expect(line).not.toContain(SECRET);
    expect(line).toContain("[REDACTED:");
  });

  it("prints errno codes and causes", () => {
    const reset = Object.assign(new Error("read ECONNRESET"), {
      code: "ECONNRESET",
      syscall: "read",
    });
    const line = formatLog("error", "query failed", new Error("outer", { cause: reset }));
    expect(line).toContain("cause1.code=ECONNRESET");
    expect(line).toContain("cause1.syscall=read");
  });

  it("never prints what JSON.parse echoes, nor a thrown non-error", () => {
    let parseError: unknown;
    try {
      JSON.parse(`{${MESSAGE_TEXT}`);
    } catch (error) {
      parseError = error;
    }
    expect(formatLog("error", "bad body", parseError)).not.toContain("grocery");
    const thrown = formatLog("error", "weird", MESSAGE_TEXT);
    expect(thrown).toBe("[baton] weird error=string");
  });

  it("masks secrets in fields and events, and keeps info on stdout", () => {
    const writes: string[] = [];
    const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      writes.push(String(chunk));
      return true;
    });
    try {
      log.info("token seen", undefined, { value: SECRET, count: 3, ok: true, none: null });
    } finally {
      spy.mockRestore();
    }
    expect(writes).toHaveLength(1);
    expect(writes[0]).not.toContain(SECRET);
    expect(writes[0]).toContain("count=3 ok=true none=null");
  });
});

describe("guardConsole", () => {
  it("prints an Error by name and code only, and masks secrets in strings", async () => {
    const { guardConsole } = await import("./log");
    const printed: unknown[][] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => {
      printed.push(args);
    };
    try {
      guardConsole();
      const error = Object.assign(
        new Error('Failed query: insert into "messages" params: my secret text'),
        { query: 'insert into "messages" ("id") values ($1)', params: ["my secret text"] },
      );
      console.error(error);
      console.error("token ghp_Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0Lm9Nb8 leaked");
      console.error(
        " ⨯ Error: Failed query: select 1 where id = $1\nparams: my secret text\n at x",
      );
    } finally {
      console.error = original;
    }
    const text = printed.flat().map(String).join("\n");
    expect(text).not.toContain("my secret text");
    expect(text).not.toContain("ghp_Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0Lm9Nb8");
    expect(text).toContain("[REDACTED:");
  });
});
