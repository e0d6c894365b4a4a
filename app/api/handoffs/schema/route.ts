import { z } from "zod";
import { handoffJsonSchema, handoffJsonSchemas, SCHEMA_NAMES } from "@/lib/handoff-api/json-schema";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

const querySchema = z.object({ name: z.enum(SCHEMA_NAMES).optional() });

/** The handoff format's JSON Schemas by name, or the one named by `?name=`. */
export const GET = route(
  { auth: "api:read", query: querySchema, rateLimit: "api" },
  async ({ query }) =>
    Response.json(query.name ? handoffJsonSchema(query.name) : handoffJsonSchemas()),
);
