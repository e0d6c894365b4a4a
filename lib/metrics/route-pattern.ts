// The route pattern of a request (`/api/threads/[id]`), for the `route` label: a label holding
// raw paths would grow one series per thread id. It is rebuilt from the request's path and the
// params Next resolved for it: each segment that is a param's value becomes `[name]`, and the
// segments a catch-all took become one `[...name]`. Nothing else is read, so it works the same
// in the standalone build, where the app folder is not on disk.

export type RouteParams = Record<string, string | string[] | undefined>;

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export function routePattern(pathname: string, params: RouteParams | undefined): string {
  const segments = pathname.split("/").filter(Boolean);
  const entries = Object.entries(params ?? {});
  const out = segments.map(decode);
  // Catch-alls first: they end the path, and take as many segments as their value has.
  for (const [name, value] of entries) {
    if (!Array.isArray(value)) continue;
    const start = out.length - value.length;
    if (value.length > 0 && start >= 0) out.splice(start, value.length, `[...${name}]`);
  }
  // Single params: the last segment holding the value, searched from the end (a static segment
  // with the same text sits before it in every Baton route).
  for (const [name, value] of entries) {
    if (typeof value !== "string") continue;
    const index = out.lastIndexOf(value);
    if (index >= 0) out[index] = `[${name}]`;
  }
  return `/${out.join("/")}`;
}
