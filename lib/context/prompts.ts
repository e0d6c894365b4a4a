// The instructions Baton gives a model for its own bookkeeping calls: writing a handoff and
// summarizing older messages. Kept apart so tests and the offline model can recognize them.
import { OFFLINE_COMPACT_MARKER } from "@/lib/demo-model/model";

export const HANDOFF_INSTRUCTION = [
  "Your context window is nearly full. Write a handoff for the next session of this conversation:",
  "it will start with a clean context and only what you write here.",
  "Fill every field from the conversation above. Keep facts and guesses apart: only what was",
  "confirmed goes in confirmed_facts; anything uncertain goes in unknowns. Copy must_preserve",
  "items from any carried-over context verbatim, and keep open tasks with their ids.",
  "Answer with the JSON object only.",
].join(" ");

export function repairInstruction(errors: string): string {
  return `Your previous handoff was not valid: ${errors}. Write it again as a JSON object that matches the schema exactly.`;
}

export const COMPACT_INSTRUCTION = [
  OFFLINE_COMPACT_MARKER,
  "Summarize the conversation so far for your own later use: the goal, the facts established,",
  "decisions made, tasks open and done, and where the work stands. Be complete but brief;",
  "the summary will replace these messages in your context.",
].join(" ");
