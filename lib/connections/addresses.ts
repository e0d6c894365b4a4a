// Which network addresses a tool server may not be reached on: everything that is not the public
// internet — loopback, private ranges, link-local (the cloud metadata address among them),
// unique-local, CGNAT, unspecified, multicast, reserved. IPv6 forms that carry an IPv4 address
// (mapped ::ffff:a.b.c.d, compatible ::a.b.c.d, NAT64 64:ff9b::/96) are judged as that address.
// Pure: no I/O.
import { isIP } from "node:net";

interface Range {
  bytes: number[];
  bits: number;
  kind: string;
}

const V4: Range[] = [
  { bytes: [0, 0, 0, 0], bits: 8, kind: "an unspecified address" },
  { bytes: [10, 0, 0, 0], bits: 8, kind: "a private address" },
  { bytes: [100, 64, 0, 0], bits: 10, kind: "a shared (CGNAT) address" },
  { bytes: [127, 0, 0, 0], bits: 8, kind: "a loopback address" },
  { bytes: [169, 254, 0, 0], bits: 16, kind: "a link-local address" },
  { bytes: [172, 16, 0, 0], bits: 12, kind: "a private address" },
  { bytes: [192, 0, 0, 0], bits: 24, kind: "a reserved address" },
  { bytes: [192, 168, 0, 0], bits: 16, kind: "a private address" },
  { bytes: [198, 18, 0, 0], bits: 15, kind: "a reserved address" },
  { bytes: [224, 0, 0, 0], bits: 4, kind: "a multicast address" },
  { bytes: [240, 0, 0, 0], bits: 4, kind: "a reserved address" },
];

const V6: Range[] = [
  { bytes: [0xfc], bits: 7, kind: "a unique-local address" },
  { bytes: [0xfe, 0x80], bits: 10, kind: "a link-local address" },
  { bytes: [0xfe, 0xc0], bits: 10, kind: "a site-local address" },
  { bytes: [0xff], bits: 8, kind: "a multicast address" },
];

function inRange(address: number[], range: Range): boolean {
  for (let bit = 0; bit < range.bits; bit++) {
    const byte = bit >> 3;
    const mask = 0x80 >> (bit & 7);
    if (((address[byte] ?? 0) & mask) !== ((range.bytes[byte] ?? 0) & mask)) return false;
  }
  return true;
}

/** The 16 bytes of an IPv6 address (dotted IPv4 tail allowed), or null when it is not one. */
function ipv6Bytes(text: string): number[] | null {
  const address = text.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  if (isIP(address) !== 6) return null;
  let head = address;
  const tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (dotted?.[1]) {
    const v4 = ipv4Bytes(dotted[1]);
    if (!v4) return null;
    tail.push(v4[0] ?? 0, v4[1] ?? 0, v4[2] ?? 0, v4[3] ?? 0);
    head = address.slice(0, -dotted[1].length);
    if (!head.endsWith("::")) head = head.slice(0, -1);
  }
  const [left = "", right] = head.split("::");
  const groups = (part: string) => (part === "" ? [] : part.split(":"));
  const leftGroups = groups(left);
  const rightGroups = right === undefined ? [] : groups(right);
  const wanted = 8 - tail.length / 2;
  const missing = wanted - leftGroups.length - rightGroups.length;
  if (missing < 0 || (right === undefined && missing !== 0)) return null;
  const all = [...leftGroups, ...Array(missing).fill("0"), ...rightGroups];
  const bytes: number[] = [];
  for (const group of all) {
    const value = Number.parseInt(group, 16);
    bytes.push(value >> 8, value & 0xff);
  }
  return [...bytes, ...tail];
}

function ipv4Bytes(text: string): number[] | null {
  if (isIP(text) !== 4) return null;
  return text.split(".").map(Number);
}

const V4_MAPPED = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff];
const V4_COMPATIBLE = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
const NAT64 = [0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0];

const startsWith = (bytes: number[], prefix: number[]) => prefix.every((b, i) => bytes[i] === b);

/** The IPv4 address an IPv6 address carries (mapped, compatible or NAT64), if it carries one. */
function embeddedIpv4(bytes: number[]): string | null {
  const carries = [V4_MAPPED, NAT64, V4_COMPATIBLE].some((prefix) => startsWith(bytes, prefix));
  return carries ? bytes.slice(12).join(".") : null;
}

/**
 * Why `address` (an IP literal, IPv6 with or without brackets) may not be reached, e.g. "a
 * private address"; null for a public address. Text that is not an IP address is refused too.
 */
export function addressRefusal(address: string): string | null {
  const v4 = ipv4Bytes(address);
  if (v4) return V4.find((range) => inRange(v4, range))?.kind ?? null;
  const v6 = ipv6Bytes(address);
  if (!v6) return "not an IP address";
  if (v6.every((b) => b === 0)) return "an unspecified address";
  if (v6.slice(0, 15).every((b) => b === 0) && v6[15] === 1) return "a loopback address";
  const inner = embeddedIpv4(v6);
  if (inner) return addressRefusal(inner);
  return V6.find((range) => inRange(v6, range))?.kind ?? null;
}

/** `[::1]` → `::1`: URL hostnames keep IPv6 brackets, addresses do not. */
export function bareHost(hostname: string): string {
  return hostname.replace(/^\[|\]$/g, "").toLowerCase();
}

/**
 * Whether `url`'s host is on the operator's allow-list: an entry `host` allows every port,
 * `host:port` (IPv6 as `[::1]:8080`) one port. Hosts compare case-insensitively.
 */
export function isAllowedHost(url: URL, allowed: readonly string[]): boolean {
  const host = url.hostname.toLowerCase();
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  return allowed.some((entry) => {
    const item = entry.trim().toLowerCase();
    if (item === host || item === bareHost(host)) return true;
    return item === `${host}:${port}` || item === `${bareHost(host)}:${port}`;
  });
}
