// Grooming (docs/handoffs.md): deletes an owner's handoffs whose thread is gone or that have been idle
// past the TTL, and says what it kept and why. A handoff a session starts from is always kept.
import "server-only";
import { type ServerEnv, serverEnv } from "@/core/env";
import { groomHandoffs } from "@/db/queries/handoff-groom";
import { countHandoff } from "@/lib/metrics";
import { type ApiIdentity, requireScope } from "./identity";
import { type GroomResult, groomResultSchema } from "./schemas";

const DEFAULT_HANDOFF_TTL_DAYS = 30;
const DAY_MS = 86_400_000;

/** Days a handoff may sit unwritten and unaccepted before grooming deletes it. */
export function handoffTtlDays(
  env: Pick<ServerEnv, "BATON_HANDOFF_TTL_DAYS"> = serverEnv(),
): number {
  return env.BATON_HANDOFF_TTL_DAYS ?? DEFAULT_HANDOFF_TTL_DAYS;
}

export async function groomOwnHandoffs(
  identity: ApiIdentity,
  { now = new Date(), ttlDays = handoffTtlDays() }: { now?: Date; ttlDays?: number } = {},
): Promise<GroomResult> {
  requireScope(identity, "groom");
  const cutoff = new Date(now.getTime() - ttlDays * DAY_MS);
  const rows = await countHandoff("groom", groomHandoffs({ ownerId: identity.userId, cutoff }));
  return groomResultSchema.parse({
    deleted: rows.filter((r) => r.deleted).map((r) => ({ key: r.key, reason: r.reason })),
    kept: rows.filter((r) => !r.deleted).map((r) => ({ key: r.key, reason: r.reason })),
  });
}
