import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientIp } from "./client-ip";
import {
  hasWellFormedPath,
  installFrontDoor,
  MALFORMED_PAGE_PATH,
  peerAddress,
} from "./front-door";

let server: http.Server;
let base = "";
const seen: Request[] = [];
const urls: string[] = [];

beforeAll(async () => {
  installFrontDoor();
  server = http.createServer((req, res) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === "string") headers.set(name, value);
    }
    seen.push(new Request(`http://127.0.0.1${req.url}`, { headers }));
    urls.push(req.url ?? "");
    res.end("ok");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("the socket address stamp", () => {
  it("names the socket's address, whatever X-Forwarded-For the client wrote", async () => {
    await fetch(`${base}/`, { headers: { "x-forwarded-for": "203.0.113.9" } });
    const request = seen.at(-1);
    if (!request) throw new Error("the server saw no request");
    expect(peerAddress(request)).toBe("127.0.0.1");
    expect(clientIp(request, 0)).toBe("127.0.0.1");
    expect(clientIp(request, 1)).toBe("203.0.113.9");
  });

  it("overwrites a copy of the stamp a client sends", async () => {
    const forged = [...(seen.at(-1)?.headers.keys() ?? [])].find((k) =>
      k.startsWith("x-baton-peer"),
    );
    if (!forged) throw new Error("no stamp header");
    await fetch(`${base}/`, { headers: { [forged]: "198.51.100.7" } });
    const request = seen.at(-1);
    if (!request) throw new Error("the server saw no request");
    expect(peerAddress(request)).toBe("127.0.0.1");
  });
});

describe("malformed percent-encoding in the path", () => {
  it("tells well-formed paths from malformed ones", () => {
    expect(hasWellFormedPath("/api/handoffs/a%20b?q=%ZZ")).toBe(true);
    for (const bad of ["/api/handoffs/%C0%AF", "/api/threads/%ZZ", "/chat/%", "/x/%E0%A4%A"]) {
      expect(hasWellFormedPath(bad)).toBe(false);
    }
  });

  it("answers an API path with a JSON 400 before the app sees it", async () => {
    const before = urls.length;
    const response = await fetch(`${base}/api/handoffs/%C0%AF`);
    expect(response.status).toBe(400);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await response.json()).toMatchObject({ error: { code: "bad_request:path" } });
    expect(urls.length).toBe(before);
  });

  it("answers the share view's API the same way", async () => {
    const response = await fetch(`${base}/share/tok/files/%C0%AF`);
    expect(response.status).toBe(400);
  });

  it("sends a page path to the not-found page", async () => {
    for (const path of ["/chat/%C0%AF", "/share/%C0%AF"]) {
      await fetch(`${base}${path}`);
      expect(urls.at(-1)).toBe(MALFORMED_PAGE_PATH);
    }
  });
});
