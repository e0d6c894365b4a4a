// Shared bench plumbing: a scratch database (PGlite folder, or a fresh database on the
// DATABASE_URL server), percentiles, and a markdown table printer.
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { type DatabaseHandle, openDatabase } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";

export async function openScratchDatabase(label: string): Promise<{
  handle: DatabaseHandle;
  kind: string;
  dispose: () => Promise<void>;
}> {
  const url = process.env.DATABASE_URL;
  let handle: DatabaseHandle;
  let cleanup: () => Promise<void>;
  let migrationUrl: string | undefined;
  if (url) {
    const name = `baton_bench_${randomBytes(5).toString("hex")}`;
    const admin = postgres(url, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    await admin.end();
    const u = new URL(url);
    u.pathname = `/${name}`;
    handle = openDatabase({ url: u.toString() });
    migrationUrl = u.toString();
    cleanup = async () => {
      const again = postgres(url, { max: 1, onnotice: () => {} });
      await again.unsafe(`drop database if exists ${name} with (force)`);
      await again.end();
    };
  } else {
    const dir = path.resolve(".data", "bench", `${label}-${process.pid}`);
    rmSync(dir, { recursive: true, force: true });
    handle = openDatabase({ pgliteDir: dir });
    cleanup = async () => rmSync(dir, { recursive: true, force: true });
  }
  await migrateDatabase(handle, undefined, migrationUrl);
  (globalThis as unknown as { batonDb?: DatabaseHandle }).batonDb = handle;
  return {
    handle,
    kind: handle.kind,
    dispose: async () => {
      await handle.close();
      await cleanup();
    },
  };
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? Number.NaN;
}

export const ms = (n: number) => `${n.toFixed(2)} ms`;

export function table(headers: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(" | ")} |`;
  return [line(headers), line(headers.map(() => "---")), ...rows.map(line)].join("\n");
}
