// Completes the standalone build: `next build` with `output: "standalone"` writes a server.js and
// the files it traced into <distDir>/standalone, but leaves the browser's assets (.next/static,
// public/) for the deployment to copy beside it, as the Dockerfile does. `npm run build` runs
// this after the build. As a module, `standaloneServer()` does the same and returns the path of
// server.js, for scripts that start it (e2e/serve.mjs, scripts/standalone-smoke.mjs).
import { cpSync, existsSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

/** The build folder: next.config.ts reads the same variable. */
export const distDir = process.env.NEXT_DIST_DIR ?? ".next";

/**
 * Copies `from` to `to` unless `to` exists. A build starts with an empty standalone folder, so
 * an existing copy is this build's. Copied beside and renamed into place, so several servers
 * starting at once (the e2e servers) never see, or serve, a half-copied folder.
 */
function copyOnce(from, to) {
  if (existsSync(to) || !existsSync(from)) return;
  const partial = `${to}.partial-${process.pid}`;
  cpSync(from, partial, { recursive: true });
  try {
    renameSync(partial, to);
  } catch (error) {
    rmSync(partial, { recursive: true, force: true });
    // Another process put its copy there first.
    if (!existsSync(to)) throw error;
  }
}

export function standaloneServer(root = process.cwd()) {
  const standalone = path.resolve(root, distDir, "standalone");
  const server = path.join(standalone, "server.js");
  if (!existsSync(server)) {
    throw new Error(`no standalone build in ${standalone}: run \`npm run build\` first`);
  }
  // server.js looks for them under its own folder, at the same relative paths.
  copyOnce(path.resolve(root, distDir, "static"), path.join(standalone, distDir, "static"));
  copyOnce(path.resolve(root, "public"), path.join(standalone, "public"));
  return server;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(`standalone server: ${path.relative(process.cwd(), standaloneServer())}`);
}
