import { describe, expect, it } from "vitest";
import type { ListItem } from "./list-items";
import { DEFAULT_MESSAGE_HEIGHT, RowHeights } from "./row-heights";

const row = (id: string, role: "user" | "assistant", text: string): ListItem => ({
  kind: "message",
  key: id,
  sessionNumber: 1,
  message: { id, role, parts: [{ type: "text", text }] },
});
const placeholder = (count: number, key = "gap:1:1:0"): ListItem => ({
  kind: "placeholder",
  key,
  sessionNumber: 1,
  count,
  fromSeq: 1,
  toSeq: count,
  loadedBelow: true,
});

describe("RowHeights", () => {
  it("expects longer texts, code blocks and tool calls to be taller", () => {
    const heights = new RowHeights();
    const short = heights.estimate(row("a", "assistant", "ok"));
    const long = heights.estimate(row("b", "assistant", "word ".repeat(200)));
    const code = heights.estimate(row("c", "assistant", `ok\n\n\`\`\`\n${"x\n".repeat(20)}\`\`\``));
    expect(long).toBeGreaterThan(short * 3);
    expect(code).toBeGreaterThan(short + 20 * 20);
    const tool: ListItem = {
      kind: "message",
      key: "t",
      sessionNumber: 1,
      message: {
        id: "t",
        role: "assistant",
        parts: [
          { type: "text", text: "ok" },
          {
            type: "dynamic-tool",
            toolName: "x",
            toolCallId: "1",
            state: "input-available",
            input: {},
          },
        ] as never,
      },
    };
    expect(heights.estimate(tool)).toBeGreaterThan(short);
  });

  it("learns from measured rows only when settled, kind by kind", () => {
    const heights = new RowHeights();
    const answer = row("a", "assistant", "an answer");
    const question = row("q", "user", "a question");
    const before = heights.estimate(answer);
    const questionBefore = heights.estimate(question);
    heights.measured("a", answer, before * 2);
    // Not yet: what is above the view keeps its expected height until rows change.
    expect(heights.estimate(row("a2", "assistant", "an answer"))).toBe(before);
    heights.settle();
    expect(heights.estimate(row("a2", "assistant", "an answer"))).toBe(before * 2);
    expect(heights.estimate(question)).toBe(questionBefore);
    // A row is learned from once, however often it is measured again.
    heights.measured("a", answer, before * 10);
    heights.settle();
    expect(heights.estimate(row("a3", "assistant", "an answer"))).toBe(before * 2);
  });

  it("gives a placeholder its messages' measured average, kept once it is drawn", () => {
    const heights = new RowHeights();
    expect(heights.estimate(placeholder(10, "drawn"))).toBe(10 * DEFAULT_MESSAGE_HEIGHT);
    heights.measured("a", row("a", "assistant", "x"), 300);
    heights.measured("b", row("b", "user", "y"), 100);
    heights.settle();
    // One drawn keeps its height; one not drawn yet, or standing for other messages, moves on.
    expect(heights.placeholderHeight("drawn", 10)).toBe(10 * 200);
    expect(heights.estimate(placeholder(10))).toBe(10 * 200);
    heights.measured("c", row("c", "assistant", "z"), 800);
    heights.settle();
    expect(heights.estimate(placeholder(10, "drawn"))).toBe(10 * 200);
    expect(heights.placeholderHeight("drawn", 10)).toBe(10 * 200);
    expect(heights.estimate(placeholder(3, "drawn"))).toBe(3 * 400);
  });
});
