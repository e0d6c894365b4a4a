import { describe, expect, it } from "vitest";
import { formErrorsOf, formValuesOf, profileBodyOf } from "./profile-form";
import type { ProfileView } from "./profile-view";

const stored: ProfileView = {
  id: "writer",
  name: "Writer",
  description: "Writes.",
  systemPrompt: "Write well.",
  model: null,
  contextStrategy: "compact",
  resetThreshold: 0.9,
  compactThreshold: 0.6,
  maxSteps: 40,
  briefShare: 0.15,
  reviewResets: "always",
  draftThreshold: null,
  tools: { allow: ["read_file", "handoff_to_agent"] },
  delegation: {
    canHandoff: true,
    callable: true,
    allowAsHandoffTarget: false,
    allowedCallers: ["default", "planner"],
    maxHandoffDepth: 2,
  },
  builtIn: false,
  createdAt: "2025-01-01T00:00:00.000Z",
  updatedAt: "2025-01-01T00:00:00.000Z",
};

describe("the agent form", () => {
  it("turns a stored profile into values and back into the same fields", () => {
    const body = profileBodyOf(formValuesOf(stored), "edit");
    expect(body).toEqual({
      name: "Writer",
      description: "Writes.",
      systemPrompt: "Write well.",
      model: null,
      contextStrategy: "compact",
      resetThreshold: 0.9,
      compactThreshold: 0.6,
      maxSteps: 40,
      briefShare: 0.15,
      reviewResets: "always",
      draftThreshold: null,
      tools: { allow: ["read_file", "handoff_to_agent"] },
      delegation: stored.delegation,
    });
  });

  it("sends the slug only when creating, and any caller as *", () => {
    const values = { ...formValuesOf(stored), id: " editor ", callersMode: "any" as const };
    const body = profileBodyOf(values, "create");
    expect(body.id).toBe("editor");
    expect((body.delegation as { allowedCallers: unknown }).allowedCallers).toBe("*");
  });

  it("reads callers separated by commas or spaces", () => {
    const values = { ...formValuesOf(stored), callers: " a, b  c,,d " };
    const body = profileBodyOf(values, "edit");
    expect((body.delegation as { allowedCallers: unknown }).allowedCallers).toEqual([
      "a",
      "b",
      "c",
      "d",
    ]);
  });

  it("sends number text that is no number as it is, for the API to name the field", () => {
    const values = { ...formValuesOf(stored), maxSteps: "lots", resetThreshold: "" };
    const body = profileBodyOf(values, "edit");
    expect(body.maxSteps).toBe("lots");
    expect(body.resetThreshold).toBe("");
  });

  it("puts each API field error under the form field that shows it", () => {
    const { byField, form } = formErrorsOf({
      "tools.allow.1": ["Not a tool an agent can use."],
      "delegation.allowedCallers.0": ["Bad slug."],
      "delegation.maxHandoffDepth": ["At most 10."],
      compactThreshold: ["compactThreshold must not exceed resetThreshold"],
      "(body)": ["Nothing to change: send at least one field."],
      temperature: ["This field is not allowed."],
    });
    expect(byField).toEqual({
      tools: ["Not a tool an agent can use."],
      callers: ["Bad slug."],
      maxHandoffDepth: ["At most 10."],
      compactThreshold: ["compactThreshold must not exceed resetThreshold"],
    });
    expect(form).toEqual([
      "Nothing to change: send at least one field.",
      "temperature: This field is not allowed.",
    ]);
  });
});
