// The auth secret: BETTER_AUTH_SECRET when set, otherwise one random secret generated on first
// start and kept in the data folder so sessions survive restarts with no configuration.
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type ServerEnv, serverEnv } from "@/core/env";

export function resolveAuthSecret(
  dir: string,
  env: Pick<ServerEnv, "BETTER_AUTH_SECRET"> = serverEnv(),
): string {
  if (env.BETTER_AUTH_SECRET) return env.BETTER_AUTH_SECRET;
  const file = path.join(dir, "auth-secret");
  try {
    const existing = readFileSync(file, "utf8").trim();
    if (existing.length >= 32) return existing;
  } catch {
    // First start: fall through and create it.
  }
  mkdirSync(dir, { recursive: true });
  const secret = randomBytes(32).toString("hex");
  // "wx" so two processes racing on first start keep the first writer's secret.
  try {
    writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
    return secret;
  } catch {
    return readFileSync(file, "utf8").trim();
  }
}
