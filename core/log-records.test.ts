// The operations records (`log.record`): one JSON object per line, values masked like the text
// lines', and BATON_LOG_LEVEL (default info) deciding which lines of any kind are printed.
import { afterEach, describe, expect, it, vi } from "vitest";
import { formatRecord, log, logsAt } from "./log";

const SECRET = "ghp_R4nd0mT0k3nV4lu3F0rT3st1ngPurp0s3s00";

afterEach(() => {
  vi.unstubAllEnvs();
});

function written(work: () => void): { stdout: string[]; stderr: string[] } {
  const out = { stdout: [] as string[], stderr: [] as string[] };
  const spies = (["stdout", "stderr"] as const).map((stream) =>
    vi.spyOn(process[stream], "write").mockImplementation((chunk) => {
      out[stream].push(String(chunk));
      return true;
    }),
  );
  try {
    work();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return out;
}

describe("formatRecord", () => {
  it("is one line of JSON: time, level and event first, then the fields", () => {
    const line = formatRecord("info", "request", {
      method: "GET",
      route: "/api/threads/[id]",
      status: 200,
      duration_ms: 12,
      skipped: undefined,
    });
    expect(line).not.toContain("\n");
    const record = JSON.parse(line) as Record<string, unknown>;
    expect(Object.keys(record)).toEqual([
      "time",
      "level",
      "event",
      "method",
      "route",
      "status",
      "duration_ms",
    ]);
    expect(record).toMatchObject({ level: "info", event: "request", status: 200 });
    expect(new Date(String(record.time)).toISOString()).toBe(record.time);
  });

  it("masks secrets and caps long values, and a field cannot replace time, level or event", () => {
    const line = formatRecord("warn", "context_reset", {
      trigger: `token ${SECRET}`,
      long: "x".repeat(1000),
      level: "debug",
      event: 'forged\n{"level":"error"}',
    });
    expect(line).not.toContain(SECRET);
    expect(line.split("\n")).toHaveLength(1);
    const record = JSON.parse(line) as Record<string, string>;
    expect(record.trigger).toContain("[REDACTED:");
    expect(record.long?.length).toBeLessThanOrEqual(201);
    expect(record).toMatchObject({ level: "warn", event: "context_reset" });
  });
});

describe("BATON_LOG_LEVEL", () => {
  it("defaults to info", () => {
    vi.stubEnv("BATON_LOG_LEVEL", "");
    expect([logsAt("debug"), logsAt("info"), logsAt("warn"), logsAt("error")]).toEqual([
      false,
      true,
      true,
      true,
    ]);
  });

  it("drops lines below it, text lines and records alike; debug and info go to stdout", () => {
    vi.stubEnv("BATON_LOG_LEVEL", "warn");
    const quiet = written(() => {
      log.info("recovery");
      log.debug("detail");
      log.record("info", "request", { status: 200 });
      log.warn("redis unreachable");
      log.record("error", "request", { status: 500 });
    });
    expect(quiet.stdout).toEqual([]);
    expect(quiet.stderr).toHaveLength(2);
    expect(quiet.stderr[0]).toMatch(/^\[baton\] redis unreachable/);
    expect(JSON.parse(quiet.stderr[1] ?? "")).toMatchObject({ level: "error", status: 500 });

    vi.stubEnv("BATON_LOG_LEVEL", "debug");
    const loud = written(() => {
      log.debug("detail");
      log.record("debug", "request", { status: 200 });
    });
    expect(loud.stdout).toHaveLength(2);
    expect(loud.stdout[0]).toMatch(/^\[baton\] detail/);
    expect(JSON.parse(loud.stdout[1] ?? "")).toMatchObject({ level: "debug", event: "request" });
    expect(loud.stderr).toEqual([]);
  });
});
