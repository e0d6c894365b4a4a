import { requireActor } from "@/lib/auth/server";
import { errorResponse, readJson } from "@/lib/errors";
import { createTokenBodySchema } from "@/lib/handoff-api/schemas";
import { createApiToken, listTokens } from "@/lib/handoff-api/tokens";

export const dynamic = "force-dynamic";

// Token management needs a browser session: a token can never mint or list tokens.

export async function GET(request: Request) {
  try {
    const actor = await requireActor(request);
    return Response.json({ tokens: await listTokens({ userId: actor.id }) });
  } catch (error) {
    return errorResponse(error);
  }
}

/** 201 with the token itself, the only time it is ever shown. */
export async function POST(request: Request) {
  try {
    const body = createTokenBodySchema.parse(await readJson(request));
    const actor = await requireActor(request);
    const created = await createApiToken({ actor, ...body });
    return Response.json(created, { status: 201, headers: { "cache-control": "no-store" } });
  } catch (error) {
    return errorResponse(error);
  }
}
