// The client address of a request, for per-address rate limits. With no trusted proxy it is the
// socket's address (stamped at start-up, see front-door.ts); Next keeps an X-Forwarded-For a
// client sent, so that header is believed only as far as BATON_TRUST_PROXY says: N trusted
// proxies each append the address they saw, and the Nth entry from the right is the last one a
// trusted hop wrote.
import { isIP } from "node:net";
import { serverEnv } from "@/core/env";
import { peerAddress } from "./front-door";

/** The key every client shares when nothing names the client (in-process callers, tests). */
export const UNKNOWN_CLIENT = "local";

/**
 * The client's IP address (IPv4 dotted, IPv6 lower-case), or `UNKNOWN_CLIENT` when nothing says
 * who the client is. With 0 trusted proxies X-Forwarded-For is ignored entirely (any client can
 * write it) and the socket's address is used.
 */
export function clientIp(
  request: Request,
  trustProxy: number = serverEnv().BATON_TRUST_PROXY ?? 0,
): string {
  if (trustProxy <= 0) return parseAddress(peerAddress(request) ?? "") ?? UNKNOWN_CLIENT;
  const entries = (request.headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) return UNKNOWN_CLIENT;
  // Fewer entries than trusted hops (a request that skipped a proxy): the furthest address
  // there is, as Express's `trust proxy` does.
  const entry = entries[Math.max(entries.length - trustProxy, 0)] ?? "";
  return parseAddress(entry) ?? UNKNOWN_CLIENT;
}

/**
 * The rate-limit key for a client's address: an IPv4 address as it is, an IPv6 address by its
 * /64 network (one subscriber usually holds a whole /64, so single addresses are free to rotate).
 */
export function clientNetwork(
  request: Request,
  trustProxy: number = serverEnv().BATON_TRUST_PROXY ?? 0,
): string {
  const ip = clientIp(request, trustProxy);
  return isIP(ip) === 6 ? network64(ip) : ip;
}

/** An X-Forwarded-For entry → an IP address, or null when it is not one. */
export function parseAddress(raw: string): string | null {
  let value = raw.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value);
  if (bracketed?.[1]) value = bracketed[1];
  else if (/^[\d.]+:\d+$/.test(value)) value = value.slice(0, value.lastIndexOf(":"));
  value = value.replace(/%.*$/, "").toLowerCase(); // an IPv6 zone id names an interface, not a host
  const version = isIP(value);
  if (version === 4) return value;
  if (version !== 6) return null;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(value);
  return mapped?.[1] ?? value;
}

/** The /64 network of an IPv6 address: `2001:DB8:0:0012::1` → `2001:db8:0:12::/64`. */
function network64(ip: string): string {
  // An embedded IPv4 tail (`::ffff:1.2.3.4`) sits in the last two groups, outside the /64.
  const split = (part: string) =>
    part ? part.split(":").flatMap((g) => (g.includes(".") ? ["0", "0"] : [g])) : [];
  const [head = "", tail] = ip.split("::");
  const left = split(head);
  const right = tail === undefined ? [] : split(tail);
  const middle = tail === undefined ? [] : Array(8 - left.length - right.length).fill("0");
  const groups = [...left, ...middle, ...right].slice(0, 4);
  return `${groups.map((g) => Number.parseInt(g, 16).toString(16)).join(":")}::/64`;
}
