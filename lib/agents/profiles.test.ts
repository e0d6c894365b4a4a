import { afterEach, describe, expect, it, vi } from "vitest";
import { defaultProfile } from "./profiles";

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("the built-in profile's draft threshold", () => {
  it("is 0.65 by default, BATON_DRAFT_THRESHOLD when set, and null when it is off", () => {
    expect(defaultProfile().draftThreshold).toBe(0.65);
    vi.stubEnv("BATON_DRAFT_THRESHOLD", "0.7");
    expect(defaultProfile().draftThreshold).toBe(0.7);
    vi.stubEnv("BATON_DRAFT_THRESHOLD", "off");
    expect(defaultProfile().draftThreshold).toBeNull();
  });
});
