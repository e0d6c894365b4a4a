// A throwaway app/ tree outside the project, for showing that the route checks catch a route
// added without the wrapper (the real app/ is never touched).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** Writes `files` (path under the root → source) and returns the root and a cleanup. */
export function scratchApp(files: Record<string, string>): { root: string; remove: () => void } {
  const root = mkdtempSync(path.join(tmpdir(), "baton-routes-"));
  for (const [file, source] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), source);
  }
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** A state-changing route written the old way: no wrapper, no checks. */
export const UNWRAPPED_ROUTE = `export async function POST(request: Request) {
  await request.text();
  return Response.json({ ok: true });
}
`;

/** The same route through the wrapper. */
export const WRAPPED_ROUTE = `import { route } from "@/lib/http/route";
export const POST = route({ auth: "none" }, async () => Response.json({ ok: true }));
`;
