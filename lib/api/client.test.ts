import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZodError, z } from "zod";
import {
  ApiError,
  apiErrorOf,
  del,
  errorFromBody,
  get,
  parseResponse,
  post,
  readableError,
} from "./client";
import { threadViewPageSchema } from "./thread-schemas";

const json = (body: unknown, status = 200) => Response.json(body, { status });

describe("apiErrorOf", () => {
  it("reads the code, message and field errors of an error body", async () => {
    const error = await apiErrorOf(
      json(
        {
          error: { code: "bad_request:body", message: "Invalid.", fields: { name: ["Required"] } },
        },
        400,
      ),
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 400,
      code: "bad_request:body",
      message: "Invalid.",
      fields: { name: ["Required"] },
    });
  });

  it("falls back to the caller's words, or the status, when the body is not an error", async () => {
    const html = new Response("<html>Bad gateway</html>", { status: 502 });
    expect(await apiErrorOf(html, "Couldn't load.")).toMatchObject({
      status: 502,
      code: null,
      message: "Couldn't load.",
    });
    expect((await apiErrorOf(json({ nope: true }, 500))).message).toBe("The server answered 500.");
  });
});

describe("parseResponse", () => {
  const schema = z.object({ url: z.string() });

  it("answers the parsed body of a success", async () => {
    expect(await parseResponse(json({ url: "https://x", extra: 1 }), schema)).toEqual({
      url: "https://x",
    });
  });

  it("throws an ApiError for a refusal", async () => {
    const refused = json({ error: { code: "not_found:thread", message: "Not found." } }, 404);
    await expect(parseResponse(refused, schema)).rejects.toMatchObject({
      name: "ApiError",
      status: 404,
      code: "not_found:thread",
    });
  });

  it("throws a ZodError when a success does not have the expected shape", async () => {
    await expect(parseResponse(json({ link: "https://x" }), schema)).rejects.toBeInstanceOf(
      ZodError,
    );
  });
});

describe("readableError", () => {
  it("reads a JSON error body the chat transport threw as text", () => {
    const thrown = new Error(
      JSON.stringify({ error: { code: "conflict:message", message: "No." } }),
    );
    expect(readableError(thrown)).toBe("No.");
  });

  it("keeps any other message, and never answers an empty string", () => {
    expect(readableError(new Error("Failed to fetch"))).toBe("Failed to fetch");
    expect(readableError(new Error(""))).toBe("Something went wrong.");
    expect(readableError(new ApiError("Refused.", 403, "forbidden:origin"))).toBe("Refused.");
  });

  it("does not take a body without a message for an error", () => {
    expect(errorFromBody({ error: { code: "x" } }, 400)).toBeNull();
    expect(errorFromBody("text", 400)).toBeNull();
  });
});

describe("threadViewPageSchema", () => {
  const page = {
    thread: { id: "t", title: "T", model: "m", profile: "default", createdAt: "", updatedAt: "" },
    sessions: [],
    messages: [
      {
        id: "m1",
        role: "user",
        parts: [{ type: "text", text: "hi" }],
        metadata: { seq: 1, status: "complete" },
      },
    ],
    olderCursor: null,
    newerCursor: null,
    context: null,
    answering: [],
  };

  it("reads a page without live streams as having none", () => {
    const parsed = threadViewPageSchema.parse(page);
    expect(parsed.live).toEqual([]);
    expect(parsed.reset).toBeNull();
    expect(parsed.messages[0]?.parts).toEqual([{ type: "text", text: "hi" }]);
  });

  it("reads live streams and the running reset", () => {
    const live = [{ streamId: "s", requestId: "m1", continuesMessageId: null, startedAt: "x" }];
    const reset = { fromSession: 1, trigger: "threshold", startedAt: "x" };
    expect(threadViewPageSchema.parse({ ...page, live, reset })).toMatchObject({ live, reset });
  });

  it("refuses a part without a type and an unknown status", () => {
    const bad = { ...page, messages: [{ ...page.messages[0], parts: [{ text: "hi" }] }] };
    expect(threadViewPageSchema.safeParse(bad).success).toBe(false);
    const status = { ...page, messages: [{ ...page.messages[0], metadata: { status: "odd" } }] };
    expect(threadViewPageSchema.safeParse(status).success).toBe(false);
  });
});

describe("requests over HTTP", () => {
  let server: Server;
  let base = "";
  const seen: { method?: string; type?: string; body: string }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => {
        body += chunk;
      });
      req.on("end", () => {
        seen.push({ method: req.method, type: req.headers["content-type"], body });
        res.setHeader("content-type", "application/json");
        if (req.url === "/missing") {
          res.statusCode = 404;
          res.end(JSON.stringify({ error: { code: "not_found:thread", message: "Not found." } }));
        } else {
          res.end(JSON.stringify({ echo: body }));
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("posts JSON and parses the answer", async () => {
    const answer = await post(`${base}/x`, { a: 1 }, z.object({ echo: z.string() }));
    expect(JSON.parse(answer.echo)).toEqual({ a: 1 });
    expect(seen.at(-1)).toMatchObject({ method: "POST", type: "application/json" });
  });

  it("throws the server's refusal from get, and del accepts the statuses it is told to", async () => {
    await expect(get(`${base}/missing`, z.object({}))).rejects.toMatchObject({
      status: 404,
      code: "not_found:thread",
    });
    await expect(del(`${base}/missing`, { acceptStatuses: [404] })).resolves.toBeUndefined();
    await expect(del(`${base}/missing`)).rejects.toBeInstanceOf(ApiError);
  });

  it("reports a server it cannot reach as status 0 with the caller's words", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/x`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(get(url, z.object({}), { fallback: "Offline." })).rejects.toMatchObject({
      status: 0,
      message: "Offline.",
    });
  });
});
