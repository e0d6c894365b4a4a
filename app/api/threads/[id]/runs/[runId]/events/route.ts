// The run journal of one run of the thread, in order (docs/journal.md). Owner only: another
// user's run, a run of another thread and a malformed id all answer 404 `not_found:run`.
import { listRunEvents } from "@/db/queries/run-events";
import { runEventsResponseSchema } from "@/lib/agents/journal-schemas";
import { runEventViewOf, runSummaryOf } from "@/lib/agents/journal-views";
import { runNotFound, runParamsSchema } from "@/lib/chat/run-param";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

export const GET = route(
  { auth: "session", params: runParamsSchema, paramsError: runNotFound },
  async ({ actor, params }) => {
    const journal = await listRunEvents({
      userId: actor.id,
      threadId: params.id,
      runId: params.runId,
    });
    if (!journal) throw runNotFound();
    return Response.json(
      runEventsResponseSchema.parse({
        run: runSummaryOf(journal.run),
        events: journal.events.map(runEventViewOf),
      }),
    );
  },
);
