// Builds the production app for e2e. CI's second pass (same commit, other database) sets
// E2E_REUSE_BUILD=1 to reuse the build of the first pass: the build does not depend on the
// database, which is chosen at run time.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

const distDir = process.env.NEXT_DIST_DIR ?? ".next";
if (process.env.E2E_REUSE_BUILD === "1" && existsSync(path.join(distDir, "BUILD_ID"))) {
  console.log(`e2e: reusing the production build in ${distDir}`);
  process.exit(0);
}
const result = spawnSync("npx", ["next", "build"], { stdio: "inherit" });
process.exit(result.status ?? 1);
