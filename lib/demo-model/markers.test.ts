// The demo model reads remember, note, decide, todo and done as the handoff's mechanical merge
// does (lib/handoff/explicit-markers.ts): the handoff it writes records what the merge would.
import { generateText, type ModelMessage, Output } from "ai";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { HANDOFF_INSTRUCTION } from "@/lib/context/prompts";
import { emptyArtifact, handoffArtifactSchema } from "@/lib/handoff/artifact";
import { applyExplicitMarkers, parseExplicitMarkers } from "@/lib/handoff/explicit-markers";
import { createOfflineModel } from "./model";

beforeEach(() => {
  vi.stubEnv("BATON_LOCAL_DELAY_MS", "0");
  vi.stubEnv("BATON_LOCAL_HANDOFF_DELAY_MS", "0");
});

async function handoffAfter(userTexts: string[]) {
  const messages: ModelMessage[] = userTexts.flatMap((content): ModelMessage[] => [
    { role: "user", content },
    { role: "assistant", content: "ok" },
  ]);
  const { output } = await generateText({
    model: createOfflineModel(),
    messages: [...messages, { role: "user", content: HANDOFF_INSTRUCTION }],
    output: Output.object({ schema: handoffArtifactSchema }),
  });
  return output;
}

const MARKED_FIELDS = [
  "remaining_tasks",
  "completed_work",
  "key_decisions",
  "confirmed_facts",
  "must_preserve",
] as const;

describe("demo model: explicit markers", () => {
  it.each([
    [["done swept the deck", "todo call the harbour", "todo pack the maps", "done t2"]],
    [["todo pack the maps", "done t1", "done pack the maps", "todo book the train"]],
    [
      [
        "Please remember that the vault is in Lisbon.",
        "Decision: no ORM. todo write the migration",
      ],
    ],
    [["note the API is versioned", "remember the API is versioned", "todo that the docs ship"]],
  ])("records what the markers' merge records: %j", async (userTexts) => {
    const merged = applyExplicitMarkers(emptyArtifact(), userTexts.flatMap(parseExplicitMarkers));
    const output = await handoffAfter(userTexts);
    for (const field of MARKED_FIELDS) expect(output[field], field).toEqual(merged[field]);
  });
});
