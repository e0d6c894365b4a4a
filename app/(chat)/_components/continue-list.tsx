// "Continue where you left off": the user's open handoffs, newest first, above a new chat.
// Listing them runs nothing; only choosing one starts a thread (see ContinuePanel).

import { ContinuePanel } from "@/components/handoffs/continue-panel";
import { listOpenHandoffs } from "@/lib/handoff-api/handoffs";

/** How many open handoffs the home page offers; older ones stay reachable through the API. */
const SHOWN = 6;

export async function ContinueList({ userId }: { userId: string }) {
  const handoffs = await listOpenHandoffs({ userId, limit: SHOWN });
  if (handoffs.length === 0) return null;
  return <ContinuePanel handoffs={handoffs} />;
}
