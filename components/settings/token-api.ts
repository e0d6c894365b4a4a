// The settings page's calls to /api/tokens and /api/handoffs/groom. Responses are parsed so a
// changed API fails loudly here instead of rendering `undefined`.
import { z } from "zod";
import { groomResultSchema, type TokenView, tokenViewSchema } from "@/lib/handoff-api/schemas";

const errorBodySchema = z.object({ error: z.object({ code: z.string(), message: z.string() }) });

async function failure(response: Response, fallback: string): Promise<Error> {
  const parsed = errorBodySchema.safeParse(await response.json().catch(() => null));
  return new Error(parsed.success ? parsed.data.error.message : fallback);
}

export async function fetchTokens(): Promise<TokenView[]> {
  const response = await fetch("/api/tokens", { cache: "no-store" });
  if (!response.ok) throw await failure(response, "Couldn't load your tokens.");
  return z.object({ tokens: z.array(tokenViewSchema) }).parse(await response.json()).tokens;
}

export async function createToken(input: {
  name: string;
  scopes: TokenView["scopes"];
}): Promise<TokenView & { token: string }> {
  const response = await fetch("/api/tokens", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(input),
  });
  if (!response.ok) throw await failure(response, "Couldn't create the token.");
  return tokenViewSchema.extend({ token: z.string() }).parse(await response.json());
}

export async function revokeToken(id: string): Promise<void> {
  const response = await fetch(`/api/tokens/${encodeURIComponent(id)}`, { method: "DELETE" });
  // Already gone elsewhere is what the user wanted too.
  if (response.ok || response.status === 404) return;
  throw await failure(response, "Couldn't revoke the token.");
}

export async function groomHandoffs() {
  const response = await fetch("/api/handoffs/groom", { method: "POST" });
  if (!response.ok) throw await failure(response, "Couldn't groom handoffs.");
  return groomResultSchema.parse(await response.json());
}
