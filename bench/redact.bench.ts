// Redaction cost (issue 10): redactText on text without secrets (the common case: every handoff
// field and every share-view message goes through it) and on text dense with them, from a short
// field to a 200 kB message, to show the cost grows linearly with length.
// Run: npx tsx bench/redact.bench.ts   (BENCH_SAMPLES=… per size)
import { performance } from "node:perf_hooks";
import { redactText } from "@/core/redact/engine";
import { SECRET_CASES } from "@/tests/support/secret-corpus";
import { ms, percentile, table } from "./support";

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);
const PROSE =
  "Moved the token refresh into lib/auth/token-store.ts (commit 3f2a9c0); the key rotation job " +
  "now reads its secret from the vault, and the password form validates on submit. ";
const SECRETS = `${SECRET_CASES.map((c) => c.text).join("\n")}\n`;

const fill = (unit: string, bytes: number) =>
  unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);

function measure(text: string): number[] {
  const times: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const start = performance.now();
    redactText(text);
    times.push(performance.now() - start);
  }
  return times;
}

// Warm the regexes and the JIT so the first size does not carry compilation.
for (let i = 0; i < 50; i++) redactText(SECRETS + PROSE);

const rows: (string | number)[][] = [];
for (const [label, unit] of [
  ["prose, no secrets", PROSE],
  ["37 pasted secrets, repeated", SECRETS],
] as const) {
  for (const bytes of [200, 2_000, 20_000, 200_000]) {
    const times = measure(fill(unit, bytes));
    const median = percentile(times, 50);
    rows.push([
      label,
      `${bytes.toLocaleString("en")} B`,
      SAMPLES,
      ms(median),
      ms(percentile(times, 99)),
      `${(bytes / 1e6 / (median / 1e3)).toFixed(1)} MB/s`,
    ]);
  }
}
console.log(table(["text", "size", "n", "median", "p99", "throughput"], rows));
