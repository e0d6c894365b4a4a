"use client";
// The pages' CSP has no 'unsafe-eval'. Zod compiles object parsers with `new Function` when it
// may, and the first object parse probes whether it may: in the browser that probe is a CSP
// violation. Rendered once in the root layout, this tells zod not to try before anything parses.
import { config } from "zod/v4/core";

config({ jitless: true });

export function ZodWithoutEval() {
  return null;
}
