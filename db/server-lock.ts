// A PGlite folder admits one process. The server records its pid beside the database so that
// `npm run db:migrate` can refuse to open the folder while that server is running.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const LOCK_FILE = "baton-server.pid";

export function claimPgliteFolder(dir: string): void {
  writeFileSync(path.join(dir, LOCK_FILE), String(process.pid));
}

/** The pid of a live server holding the folder, or null. */
export function pgliteFolderHolder(dir: string): number | null {
  let pid: number;
  try {
    pid = Number(readFileSync(path.join(dir, LOCK_FILE), "utf8").trim());
  } catch {
    return null;
  }
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return null;
  try {
    process.kill(pid, 0); // signal 0 only checks that the process exists
    return pid;
  } catch {
    return null;
  }
}
