import { describe, expect, it } from "vitest";
import { addressRefusal, isAllowedHost } from "./addresses";

describe("addressRefusal", () => {
  it.each([
    ["10.0.0.1", "a private address"],
    ["172.16.0.1", "a private address"],
    ["172.31.255.255", "a private address"],
    ["192.168.1.1", "a private address"],
    ["127.0.0.1", "a loopback address"],
    ["127.8.9.10", "a loopback address"],
    ["169.254.169.254", "a link-local address"],
    ["100.64.0.1", "a shared (CGNAT) address"],
    ["100.127.255.255", "a shared (CGNAT) address"],
    ["0.0.0.0", "an unspecified address"],
    ["224.0.0.1", "a multicast address"],
    ["::", "an unspecified address"],
    ["::1", "a loopback address"],
    ["[::1]", "a loopback address"],
    ["fe80::1", "a link-local address"],
    ["febf::1", "a link-local address"],
    ["fc00::1", "a unique-local address"],
    ["fd12:3456::1", "a unique-local address"],
    ["::ffff:10.0.0.1", "a private address"],
    ["::ffff:a00:1", "a private address"],
    ["::ffff:127.0.0.1", "a loopback address"],
    ["::ffff:169.254.169.254", "a link-local address"],
    ["64:ff9b::a9fe:a9fe", "a link-local address"],
    ["not-an-ip", "not an IP address"],
  ])("%s is %s", (address, reason) => {
    expect(addressRefusal(address)).toBe(reason);
  });

  it.each([
    "8.8.8.8",
    "93.184.216.34",
    "172.32.0.1",
    "100.128.0.1",
    "2606:4700:4700::1111",
    "::ffff:8.8.8.8",
    "2001:db8::1",
  ])("%s is public", (address) => {
    expect(addressRefusal(address)).toBeNull();
  });
});

describe("isAllowedHost", () => {
  const url = (u: string) => new URL(u);
  it("matches a host on any port, or host:port on one", () => {
    expect(isAllowedHost(url("http://127.0.0.1:8808/mcp"), ["127.0.0.1"])).toBe(true);
    expect(isAllowedHost(url("http://127.0.0.1:8808/mcp"), ["127.0.0.1:8808"])).toBe(true);
    expect(isAllowedHost(url("http://127.0.0.1:8809/mcp"), ["127.0.0.1:8808"])).toBe(false);
    expect(isAllowedHost(url("http://Tools.Internal/mcp"), ["tools.internal:80"])).toBe(true);
    expect(isAllowedHost(url("https://tools.internal/mcp"), ["tools.internal:80"])).toBe(false);
    expect(isAllowedHost(url("http://[::1]:9000/"), ["[::1]:9000"])).toBe(true);
    expect(isAllowedHost(url("http://[::1]:9000/"), ["::1"])).toBe(true);
    expect(isAllowedHost(url("http://tools.internal.evil.com/"), ["tools.internal"])).toBe(false);
  });
});
