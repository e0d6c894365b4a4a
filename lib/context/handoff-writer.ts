// Step 2 of a reset: the model writes the HandoffArtifact by structured output; invalid output
// gets one repair attempt with the validation errors, then a mechanical artifact takes over.
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { generateText, type ModelMessage, NoObjectGeneratedError, Output } from "ai";
import { type HandoffArtifact, handoffArtifactSchema } from "@/lib/handoff/artifact";
import { mechanicalArtifact, mergeMechanicalFacts } from "@/lib/handoff/merge";
import { HANDOFF_INSTRUCTION, repairInstruction } from "./prompts";

export type ArtifactSource = "model" | "repaired" | "mechanical";

export interface HandoffWriterInput {
  model: LanguageModelV3;
  system: string;
  messages: ModelMessage[];
  previous: HandoffArtifact | null;
  userTexts: string[];
  filesTouched: string[];
  lastUserRequest?: string;
  /** Ends the model call (the reset was cancelled): the writer then throws, writing nothing. */
  abortSignal?: AbortSignal;
}

function describeFailure(error: unknown): string {
  if (NoObjectGeneratedError.isInstance(error)) {
    const cause = error.cause instanceof Error ? error.cause.message : String(error.cause ?? "");
    return `${error.message}${cause ? ` (${cause.slice(0, 2_000)})` : ""}`;
  }
  return error instanceof Error ? error.message : String(error);
}

async function ask(
  model: LanguageModelV3,
  system: string,
  messages: ModelMessage[],
  abortSignal?: AbortSignal,
) {
  const result = await generateText({
    model,
    system,
    messages,
    output: Output.object({ schema: handoffArtifactSchema }),
    maxRetries: 1,
    abortSignal,
  });
  return handoffArtifactSchema.parse(result.output);
}

export async function writeHandoffArtifact(
  input: HandoffWriterInput,
): Promise<{ artifact: HandoffArtifact; source: ArtifactSource; failures: string[] }> {
  const failures: string[] = [];
  const request: ModelMessage[] = [
    ...input.messages,
    { role: "user", content: HANDOFF_INSTRUCTION },
  ];
  let artifact: HandoffArtifact | null = null;
  let source: ArtifactSource = "model";
  try {
    artifact = await ask(input.model, input.system, request, input.abortSignal);
  } catch (error) {
    input.abortSignal?.throwIfAborted();
    failures.push(describeFailure(error));
    try {
      artifact = await ask(
        input.model,
        input.system,
        [...request, { role: "user", content: repairInstruction(failures[0] ?? "invalid output") }],
        input.abortSignal,
      );
      source = "repaired";
    } catch (again) {
      input.abortSignal?.throwIfAborted();
      failures.push(describeFailure(again));
    }
  }
  if (!artifact) {
    source = "mechanical";
    artifact = mechanicalArtifact({
      previous: input.previous,
      userMessages: input.userTexts,
      filesTouched: input.filesTouched,
    });
  }
  return {
    artifact: mergeMechanicalFacts({
      artifact,
      previous: input.previous,
      filesTouched: input.filesTouched,
      lastUserRequest: input.lastUserRequest,
    }),
    source,
    failures,
  };
}
