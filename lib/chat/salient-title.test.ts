import { describe, expect, it } from "vitest";
import { cleanModelTitle, salientTitle, TITLE_MAX_WORDS } from "./salient-title";

describe("salient titles", () => {
  it("keeps the words that carry meaning, not the first line cut off", () => {
    const message =
      "Can you help me plan the harbour ferry timetable for the spring season, with the extra " +
      "sailings on Saturdays and a note on the lighthouse tours?";
    const title = salientTitle(message);
    expect(title).toBe("Plan harbour ferry timetable spring");
    expect(title.split(" ").length).toBeLessThanOrEqual(TITLE_MAX_WORDS);
    expect(message.toLowerCase().startsWith(title.toLowerCase())).toBe(false);
  });

  it("skips code, links, numbers and command words", () => {
    expect(
      salientTitle("remember ```const x = 1``` see https://example.com/a 42 budget review"),
    ).toBe("See budget review");
    expect(salientTitle("the and of")).toBe("New chat");
    expect(salientTitle("")).toBe("New chat");
  });

  it("reads a model's answer as a short plain title", () => {
    expect(cleanModelTitle('Title: "Harbour Ferry Timetable."')).toBe("Harbour Ferry Timetable");
    expect(cleanModelTitle("**Spring sailings plan**\nMore text")).toBe("Spring sailings plan");
    expect(cleanModelTitle("one two three four five six seven eight")).toBe(
      "one two three four five six",
    );
    expect(cleanModelTitle("  \n ")).toBeNull();
  });
});
