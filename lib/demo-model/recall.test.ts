import { describe, expect, it } from "vitest";
import { findToolCommand } from "./tool-commands";

describe("the offline model's recall command", () => {
  it("reads `recall <words>` at the start of a line as a search", () => {
    expect(findToolCommand("recall harbour gate code")?.command).toEqual({
      kind: "recall",
      query: "harbour gate code",
    });
    expect(findToolCommand("Thanks.\nRecall: the deploy key")?.command).toEqual({
      kind: "recall",
      query: "the deploy key",
    });
  });

  it("leaves an ordinary sentence with the word in it alone", () => {
    expect(findToolCommand("I recall that we met at the harbour")).toBeNull();
    expect(findToolCommand("recall")).toBeNull();
  });
});
