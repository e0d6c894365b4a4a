// Writes the handoff format's JSON Schemas to docs/handoff-schema/<name>.json (the files the API
// serves at GET /api/handoffs/schema; a test holds them equal). Run: npm run handoffs:schema
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { handoffJsonSchemas } from "@/lib/handoff-api/json-schema";

const dir = path.resolve(import.meta.dirname, "../docs/handoff-schema");
mkdirSync(dir, { recursive: true });
for (const [name, schema] of Object.entries(handoffJsonSchemas())) {
  writeFileSync(path.join(dir, `${name}.json`), `${JSON.stringify(schema, null, 2)}\n`);
  console.log(`docs/handoff-schema/${name}.json`);
}
