// The settings page's calls to /api/tokens and /api/handoffs/groom, through the one API client
// (parsed responses, one error type).
import { z } from "zod";
import { del, post } from "@/lib/api/client";
import { groomResultSchema, type TokenView, tokenViewSchema } from "@/lib/handoff-api/schemas";

export function createApiToken(input: {
  name: string;
  scopes: TokenView["scopes"];
}): Promise<TokenView & { token: string }> {
  return post("/api/tokens", input, tokenViewSchema.extend({ token: z.string() }), {
    fallback: "Couldn't create the token.",
  });
}

export function revokeApiToken(id: string): Promise<void> {
  // Already gone elsewhere is what the user wanted too.
  return del(`/api/tokens/${encodeURIComponent(id)}`, {
    acceptStatuses: [404],
    fallback: "Couldn't revoke the token.",
  });
}

export function requestHandoffGrooming() {
  return post("/api/handoffs/groom", undefined, groomResultSchema, {
    fallback: "Couldn't groom handoffs.",
  });
}
