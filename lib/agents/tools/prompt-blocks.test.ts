import { describe, expect, it } from "vitest";
import type { PlanItem } from "@/core/plan-items";
import { parsePlanBlock, renderPlanBlock, renderWorkspaceBlock } from "./prompt-blocks";

const items: PlanItem[] = [
  { id: "p1", task: "Outline the report", status: "done" },
  { id: "p2", task: "Write the\n  introduction", status: "in_progress" },
  { id: "p3", task: "Check the figures", status: "pending" },
];

describe("plan block", () => {
  it("renders one marked line per item, statuses visible", () => {
    expect(renderPlanBlock(items)).toBe(
      [
        "<plan>",
        "- [x] p1 Outline the report",
        "- [~] p2 Write the introduction",
        "- [ ] p3 Check the figures",
        "</plan>",
      ].join("\n"),
    );
    expect(renderPlanBlock([])).toBe("");
  });

  it("reads back what it rendered, inside a larger prompt", () => {
    const prompt = `System text.\n\n${renderPlanBlock(items)}\n\nMore text.`;
    expect(parsePlanBlock(prompt)).toEqual([
      items[0],
      { ...items[1], task: "Write the introduction" },
      items[2],
    ]);
    expect(parsePlanBlock("no plan here")).toEqual([]);
  });
});

describe("workspace block", () => {
  it("lists the paths, capped", () => {
    expect(renderWorkspaceBlock(["a.md", "work/p1.md"])).toBe(
      "<workspace>\n2 files: a.md, work/p1.md\n</workspace>",
    );
    expect(renderWorkspaceBlock([])).toBe("");
    const many = Array.from({ length: 60 }, (_, i) => `f${i}.md`);
    const block = renderWorkspaceBlock(many);
    expect(block).toContain("60 files: f0.md,");
    expect(block).toContain("f49.md, … and 10 more (list_files shows all)");
    expect(block).not.toContain("f50.md");
  });
});
