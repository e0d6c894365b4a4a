import { z } from "zod";
import { threadNotFound, threadParamsSchema } from "@/lib/chat/thread-param";
import { resetResponse } from "@/lib/context/reset-result";
import { handoffArtifactSchema } from "@/lib/handoff/artifact";
import { route } from "@/lib/http/route";
import { commitReviewedDraft } from "@/lib/runs/reset-requests";

export const dynamic = "force-dynamic";

const bodySchema = z
  .object({ fromSession: z.number().int().min(1), draft: handoffArtifactSchema.strict() })
  .strict();

export const POST = route(
  { auth: "session", params: threadParamsSchema, paramsError: threadNotFound, body: bodySchema },
  async ({ actor, params, body }) =>
    resetResponse(
      await commitReviewedDraft({
        userId: actor.id,
        threadId: params.id,
        fromSession: body.fromSession,
        artifact: body.draft,
      }),
    ),
);
