// `GET /api/metrics`: off (404, as if there were no such route) unless BATON_METRICS_TOKEN is
// set, then only for a caller sending it as a bearer token. The token is compared in constant
// time over fixed-length digests, so neither its content nor its length leaks through timing.
import "server-only";
import { createHash, timingSafeEqual } from "node:crypto";
import { serverEnv } from "@/core/env";
import { BatonError } from "@/core/errors";
import { metricsRegistry } from "./registry";

const digest = (text: string) => createHash("sha256").update(text).digest();

function bearerOf(request: Request): string {
  const header = request.headers.get("authorization") ?? "";
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? "";
}

export async function scrapeMetrics(request: Request): Promise<Response> {
  const token = serverEnv().BATON_METRICS_TOKEN;
  if (!token) throw new BatonError("not_found:route", "Not found.");
  if (!timingSafeEqual(digest(bearerOf(request)), digest(token))) {
    throw new BatonError("unauthorized:token", "A valid metrics token is required.");
  }
  const registry = metricsRegistry();
  return new Response(await registry.metrics(), {
    status: 200,
    headers: { "content-type": registry.contentType, "cache-control": "no-store" },
  });
}
