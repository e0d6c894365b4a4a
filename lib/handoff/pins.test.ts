import { describe, expect, it } from "vitest";
import { PIN_MAX_CHARS } from "@/core/pin-text";
import { cleanPin, pinKeyOf } from "@/core/pins";
import { carriedPins, type PinState } from "./pins";

const pin = (text: string, state: PinState["state"] = "pinned"): PinState => ({
  text,
  normalized: pinKeyOf(text),
  state,
});

describe("carriedPins", () => {
  it("carries every current pin first, oldest first, then what the writer adds", () => {
    expect(
      carriedPins(
        ["Use UTC", "Prices in cents"],
        [pin("Prices in cents"), pin("Never charge twice")],
      ),
    ).toEqual(["Prices in cents", "Never charge twice", "Use UTC"]);
  });

  it("keeps a pin the writer dropped", () => {
    expect(carriedPins([], [pin("Never charge twice")])).toEqual(["Never charge twice"]);
  });

  it("lets an unpin win over a writer that lists the item again, in any case or spacing", () => {
    expect(
      carriedPins(["never   CHARGE twice", "Use UTC"], [pin("Never charge twice", "unpinned")]),
    ).toEqual(["Use UTC"]);
  });

  it("lists a writer's item once, and no empty item", () => {
    expect(carriedPins(["Use UTC", "use utc ", "  "], [])).toEqual(["Use UTC"]);
  });

  it("matches a listed item holding a secret to its masked pin", () => {
    const secret = "the deploy key is sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD";
    const stored = cleanPin(secret);
    expect(stored).not.toContain("sk-proj-");
    expect(carriedPins([secret], [pin(stored)])).toEqual([stored]);
  });
});

describe("cleanPin", () => {
  it("flattens spacing and caps the length", () => {
    expect(cleanPin("  a \n  b\t c ")).toBe("a b c");
    expect(cleanPin("x".repeat(PIN_MAX_CHARS + 50))).toHaveLength(PIN_MAX_CHARS);
  });

  it("never ends inside a surrogate pair", () => {
    const text = `${"x".repeat(PIN_MAX_CHARS - 1)}😀`;
    const cut = cleanPin(text);
    expect(cut).toBe("x".repeat(PIN_MAX_CHARS - 1));
  });
});
