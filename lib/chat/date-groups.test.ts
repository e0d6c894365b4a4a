import { describe, expect, it } from "vitest";
import { dateGroupOf, groupByDate } from "./date-groups";

// Local times, as the sidebar reads them.
const now = new Date(2026, 11, 1, 9, 30);
const at = (days: number, hour = 12) => new Date(2026, 11, 1 - days, hour);

describe("date groups", () => {
  it("puts a moment in Today, Yesterday, Previous 7 days or Older by calendar day", () => {
    expect(dateGroupOf(new Date(2026, 11, 1, 0, 1), now)).toBe("Today");
    expect(dateGroupOf(new Date(2026, 11, 1, 23, 0), now)).toBe("Today");
    expect(dateGroupOf(new Date(2026, 10, 30, 23, 59), now)).toBe("Yesterday");
    expect(dateGroupOf(at(1, 0), now)).toBe("Yesterday");
    expect(dateGroupOf(at(2), now)).toBe("Previous 7 days");
    expect(dateGroupOf(at(7, 0), now)).toBe("Previous 7 days");
    expect(dateGroupOf(at(8), now)).toBe("Older");
    expect(dateGroupOf(new Date(2025, 0, 1), now)).toBe("Older");
  });

  it("keeps the list's order inside each group and leaves empty groups out", () => {
    const threads = [
      { id: "a", updatedAt: at(0).toISOString() },
      { id: "b", updatedAt: at(0, 8).toISOString() },
      { id: "c", updatedAt: at(3).toISOString() },
      { id: "d", updatedAt: at(40).toISOString() },
    ];
    const groups = groupByDate(threads, (t) => t.updatedAt, now);
    expect(groups.map((g) => [g.group, g.items.map((t) => t.id)])).toEqual([
      ["Today", ["a", "b"]],
      ["Previous 7 days", ["c"]],
      ["Older", ["d"]],
    ]);
    expect(groupByDate([], (t: { updatedAt: string }) => t.updatedAt, now)).toEqual([]);
  });
});
