// Request plumbing shared by the handoff routes: optional JSON bodies and path keys.
import { BatonError, readJson } from "@/lib/errors";
import { parsePathKey } from "./handoffs";

/** A JSON body that may be left out entirely (an empty body reads as `{}`). */
export async function readOptionalJson(request: Request): Promise<unknown> {
  if (request.body === null) return {};
  const text = await request.clone().text();
  return text.trim() === "" ? {} : readJson(request);
}

/** The `{key}` of a handoff route, decoded once (keys never contain `%`) and validated. */
export async function keyParam(context: { params: Promise<{ key: string }> }): Promise<string> {
  const { key } = await context.params;
  let decoded = key;
  try {
    decoded = decodeURIComponent(key);
  } catch {
    throw new BatonError("bad_request:key", "Invalid handoff key.", { key: ["Not a valid key."] });
  }
  return parsePathKey(decoded);
}
