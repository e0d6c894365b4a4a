// A committed reset as the reset routes answer it: the new session and its handoff, 201 when
// this request made it, 200 when it answers a repeat with the session made before.
import type { ChatSession } from "@/db/schema";
import type { HandoffView } from "@/lib/chat/types";

export interface ManualResetResult {
  created: boolean;
  session: ChatSession;
  handoff: HandoffView;
}

/** The reset routes' answer for a committed reset: the new session and its handoff. */
export function resetResponse(result: ManualResetResult): Response {
  const session = {
    id: result.session.id,
    number: result.session.number,
    model: result.session.model,
    profile: result.session.profile,
    trigger: result.session.trigger,
    startedAt: result.session.startedAt.toISOString(),
  };
  return Response.json(
    { session, handoff: result.handoff },
    { status: result.created ? 201 : 200 },
  );
}
