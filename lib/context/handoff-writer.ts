// Step 2 of a reset: the model writes the HandoffArtifact by structured output; invalid output
// gets one repair attempt with the validation errors, then a mechanical artifact takes over.
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { generateText, type ModelMessage, NoObjectGeneratedError, Output } from "ai";
import type { HandoffArtifact } from "@/lib/handoff/artifact";
import { mechanicalArtifact, mergeMechanicalFacts } from "@/lib/handoff/merge";
import { providerArtifactOutputSchema } from "@/lib/handoff/provider-schema";
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

interface Usage {
  inputTokens?: number;
  outputTokens?: number;
}

function tokensOf(usage: Usage | undefined): number {
  return (usage?.inputTokens ?? 0) + (usage?.outputTokens ?? 0);
}

async function ask(
  model: LanguageModelV3,
  system: string,
  messages: ModelMessage[],
  spent: { tokens: number },
  abortSignal?: AbortSignal,
) {
  try {
    const result = await generateText({
      model,
      system,
      messages,
      // Every field required (nulls for the defaults), which strict structured output demands.
      output: Output.object({ schema: providerArtifactOutputSchema() }),
      maxRetries: 1,
      abortSignal,
    });
    spent.tokens += tokensOf(result.totalUsage);
    return result.output;
  } catch (error) {
    // Output that did not parse was still paid for.
    if (NoObjectGeneratedError.isInstance(error)) spent.tokens += tokensOf(error.usage);
    throw error;
  }
}

export async function writeHandoffArtifact(input: HandoffWriterInput): Promise<{
  artifact: HandoffArtifact;
  source: ArtifactSource;
  failures: string[];
  /** Tokens the model calls spent (input and output, every attempt). */
  tokens: number;
}> {
  const failures: string[] = [];
  const spent = { tokens: 0 };
  const request: ModelMessage[] = [
    ...input.messages,
    { role: "user", content: HANDOFF_INSTRUCTION },
  ];
  let artifact: HandoffArtifact | null = null;
  let source: ArtifactSource = "model";
  try {
    artifact = await ask(input.model, input.system, request, spent, input.abortSignal);
  } catch (error) {
    input.abortSignal?.throwIfAborted();
    failures.push(describeFailure(error));
    try {
      artifact = await ask(
        input.model,
        input.system,
        [...request, { role: "user", content: repairInstruction(failures[0] ?? "invalid output") }],
        spent,
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
    tokens: spent.tokens,
  };
}
