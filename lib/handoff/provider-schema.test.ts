import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { zodSchema } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { writeHandoffArtifact } from "@/lib/context/handoff-writer";
import { strictSchemaProblem } from "@/tests/support/protocol/strict-schema";
import { handoffArtifactSchema } from "./artifact";
import { parseProviderArtifact } from "./provider-schema";

/** A model answering every call with `text`, keeping the JSON Schema each call was sent. */
function answering(text: string) {
  const schemas: unknown[] = [];
  const model = new MockLanguageModelV3({
    doGenerate: async (options: LanguageModelV3CallOptions) => {
      schemas.push(options.responseFormat?.type === "json" ? options.responseFormat.schema : null);
      return {
        content: [{ type: "text", text }],
        finishReason: { unified: "stop", raw: "stop" },
        usage: {
          inputTokens: { total: 5, noCache: 5, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: 5, text: 5, reasoning: 0 },
        },
        warnings: [],
      };
    },
  });
  return { model, schemas };
}

const write = (model: MockLanguageModelV3) =>
  writeHandoffArtifact({
    model,
    system: "You are Baton.",
    messages: [{ role: "user", content: "ship it" }],
    previous: null,
    userTexts: ["ship it"],
    filesTouched: [],
  });

const nullsEverywhere = JSON.stringify({
  goal: "Ship the release",
  state_summary: "Changelog drafted.",
  completed_work: ["drafted the changelog"],
  in_progress: null,
  remaining_tasks: [{ id: "t1", task: "tag it" }],
  key_decisions: null,
  confirmed_facts: null,
  unknowns: null,
  must_preserve: null,
  files_modified: null,
  last_completed_step: null,
  next_step: "tag the release",
  needs_authorization: null,
});

type Node = { properties?: Record<string, Node>; required?: string[]; items?: Node } & Record<
  string,
  unknown
>;

describe("the handoff schema sent to providers", () => {
  it("requires every property and forbids extra ones at every level", async () => {
    const { model, schemas } = answering(nullsEverywhere);
    await write(model);
    const sent = schemas[0] as Node;
    expect(strictSchemaProblem(sent)).toBeNull();
    expect(new Set(sent.required)).toEqual(new Set(Object.keys(handoffArtifactSchema.shape)));
    expect(sent.additionalProperties).toBe(false);
    const task = sent.properties?.remaining_tasks?.anyOf as Node[] | undefined;
    const item = task?.find((branch) => branch.type === "array")?.items;
    expect(item?.required).toEqual(["id", "task"]);
    expect(item?.additionalProperties).toBe(false);
  });

  it("is needed: the stored artifact schema breaks the strict rules", async () => {
    const stored = await zodSchema(handoffArtifactSchema).jsonSchema;
    expect(strictSchemaProblem(stored)).toMatch(
      /'required' is required .* Missing 'completed_work'/,
    );
  });

  it("maps nulls back to the artifact's defaults, as the model's own handoff", async () => {
    const { model } = answering(nullsEverywhere);
    const result = await write(model);
    expect(result.source).toBe("model");
    expect(result.artifact.goal).toBe("Ship the release");
    expect(result.artifact.in_progress).toEqual([]);
    expect(result.artifact.key_decisions).toEqual([]);
    expect(result.artifact.last_completed_step).toBe("");
    expect(result.artifact.next_step).toBe("tag the release");
    expect(result.artifact.remaining_tasks).toEqual([{ id: "t1", task: "tag it" }]);
  });

  it("refuses a null where the artifact has no default", () => {
    const parsed = parseProviderArtifact({ ...JSON.parse(nullsEverywhere), goal: null });
    expect(parsed.success).toBe(false);
    expect(parseProviderArtifact([]).success).toBe(false);
  });

  it("still applies the artifact's limits after mapping", () => {
    const parsed = parseProviderArtifact({
      ...JSON.parse(nullsEverywhere),
      remaining_tasks: [{ id: "", task: "no id" }],
    });
    expect(parsed.success).toBe(false);
  });
});
