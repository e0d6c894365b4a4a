import { describe, expect, it } from "vitest";
import { base64Bytes, mcpToolOutput } from "./mcp-result";

describe("mcpToolOutput", () => {
  it("joins text blocks", () => {
    const result = {
      content: [
        { type: "text", text: "one" },
        { type: "text", text: "two" },
      ],
    };
    expect(mcpToolOutput(result)).toEqual({ ok: true, content: "one\ntwo" });
  });

  it("describes images, audio, resources and links instead of sending them", () => {
    const data = Buffer.alloc(1234).toString("base64");
    const result = {
      content: [
        { type: "image", mimeType: "image/png", data },
        { type: "audio", mimeType: "audio/wav", data: Buffer.alloc(10).toString("base64") },
        { type: "resource", resource: { uri: "file:///a.txt", text: "inside" } },
        { type: "resource", resource: { uri: "file:///b.bin", mimeType: "x/y", blob: "AAAA" } },
        { type: "resource_link", uri: "https://e.com/r", name: "report" },
      ],
    };
    expect(mcpToolOutput(result)).toEqual({
      ok: true,
      content: [
        "[image: image/png, 1234 bytes]",
        "[audio: audio/wav, 10 bytes]",
        "[resource: file:///a.txt]\ninside",
        "[resource: file:///b.bin, x/y, 3 bytes]",
        "[resource link: https://e.com/r (report)]",
      ].join("\n"),
    });
  });

  it("isError is a failure the model reads", () => {
    expect(
      mcpToolOutput({ isError: true, content: [{ type: "text", text: "no such repo" }] }),
    ).toEqual({ ok: false, error: "no such repo" });
    expect(mcpToolOutput({ isError: true, content: [] })).toEqual({
      ok: false,
      error: "The tool reported an error.",
    });
  });

  it("falls back to structured content", () => {
    expect(mcpToolOutput({ content: [], structuredContent: { n: 1 } })).toEqual({
      ok: true,
      content: '{"n":1}',
    });
  });

  it("counts base64 bytes", () => {
    for (const n of [0, 1, 2, 3, 4, 100]) {
      expect(base64Bytes(Buffer.alloc(n).toString("base64"))).toBe(n);
    }
  });
});
