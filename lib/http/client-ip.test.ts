import { afterEach, describe, expect, it, vi } from "vitest";
import { clientIp, clientNetwork, parseAddress, UNKNOWN_CLIENT } from "./client-ip";

function requestFrom(forwardedFor?: string): Request {
  const headers = new Headers();
  if (forwardedFor !== undefined) headers.set("x-forwarded-for", forwardedFor);
  return new Request("http://localhost:3000/api/auth/sign-in/email", { headers });
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("clientIp", () => {
  it("ignores X-Forwarded-For entirely when no proxy is trusted", () => {
    expect(clientIp(requestFrom("203.0.113.7"), 0)).toBe(UNKNOWN_CLIENT);
    expect(clientIp(requestFrom("203.0.113.7, 198.51.100.1"), 0)).toBe(UNKNOWN_CLIENT);
    expect(clientIp(requestFrom(), 0)).toBe(UNKNOWN_CLIENT);
  });

  it("takes the entry the nearest trusted proxy wrote, not what the client claimed", () => {
    // A client sent "10.9.9.9"; the one trusted proxy appended the address it saw.
    expect(clientIp(requestFrom("10.9.9.9, 203.0.113.7"), 1)).toBe("203.0.113.7");
    expect(clientIp(requestFrom("203.0.113.7"), 1)).toBe("203.0.113.7");
    // CDN → load balancer → Baton: the CDN saw the client, the balancer saw the CDN.
    expect(clientIp(requestFrom("10.9.9.9, 203.0.113.7, 192.0.2.50"), 2)).toBe("203.0.113.7");
  });

  it("joins repeated X-Forwarded-For headers in order", () => {
    const headers = new Headers();
    headers.append("x-forwarded-for", "10.9.9.9");
    headers.append("x-forwarded-for", "203.0.113.7");
    expect(clientIp(new Request("http://localhost/", { headers }), 1)).toBe("203.0.113.7");
  });

  it("falls back to the furthest entry when there are fewer entries than trusted hops", () => {
    expect(clientIp(requestFrom("198.51.100.4, 192.0.2.50"), 3)).toBe("198.51.100.4");
  });

  it("answers the shared key when the header is missing or not an address", () => {
    expect(clientIp(requestFrom(), 1)).toBe(UNKNOWN_CLIENT);
    expect(clientIp(requestFrom(" , "), 1)).toBe(UNKNOWN_CLIENT);
    expect(clientIp(requestFrom("203.0.113.7, unknown"), 1)).toBe(UNKNOWN_CLIENT);
  });

  it("reads the number of trusted proxies from BATON_TRUST_PROXY", () => {
    const request = requestFrom("10.9.9.9, 203.0.113.7");
    expect(clientIp(request)).toBe(UNKNOWN_CLIENT);
    vi.stubEnv("BATON_TRUST_PROXY", "1");
    expect(clientIp(request)).toBe("203.0.113.7");
    vi.stubEnv("BATON_TRUST_PROXY", "2");
    expect(clientIp(request)).toBe("10.9.9.9");
  });
});

describe("parseAddress", () => {
  it.each([
    ["203.0.113.7", "203.0.113.7"],
    [" 203.0.113.7:4711 ", "203.0.113.7"],
    ["2001:DB8::1", "2001:db8::1"],
    ["[2001:db8::1]:443", "2001:db8::1"],
    ["[2001:db8::1]", "2001:db8::1"],
    ["fe80::1%eth0", "fe80::1"],
    ["::ffff:198.51.100.2", "198.51.100.2"],
  ])("%s → %s", (raw, expected) => {
    expect(parseAddress(raw)).toBe(expected);
  });

  it.each(["unknown", "", "203.0.113", "999.1.1.1", "example.com", "1.2.3.4:abc", "_hidden"])(
    "refuses %j",
    (raw) => {
      expect(parseAddress(raw)).toBeNull();
    },
  );
});

describe("clientNetwork", () => {
  it("keys IPv4 clients by their address", () => {
    expect(clientNetwork(requestFrom("203.0.113.7"), 1)).toBe("203.0.113.7");
    expect(clientNetwork(requestFrom("::ffff:203.0.113.7"), 1)).toBe("203.0.113.7");
  });

  it("keys IPv6 clients by their /64, so rotating addresses inside it changes nothing", () => {
    const a = clientNetwork(requestFrom("2001:db8:abcd:12:1::5"), 1);
    const b = clientNetwork(requestFrom("2001:0db8:abcd:0012:ffff:ffff:ffff:9"), 1);
    expect(a).toBe("2001:db8:abcd:12::/64");
    expect(b).toBe(a);
    expect(clientNetwork(requestFrom("2001:db8:abcd:13::5"), 1)).not.toBe(a);
    expect(clientNetwork(requestFrom("2001:db8::1"), 1)).toBe("2001:db8:0:0::/64");
    expect(clientNetwork(requestFrom("::1"), 1)).toBe("0:0:0:0::/64");
    expect(clientNetwork(requestFrom("64:ff9b::192.0.2.33"), 1)).toBe("64:ff9b:0:0::/64");
  });

  it("keeps the shared key when the client is unknown", () => {
    expect(clientNetwork(requestFrom("2001:db8::1"), 0)).toBe(UNKNOWN_CLIENT);
  });
});
