// A handoff written as markdown text (the plain write shape `{handoff_key, …, body}`, MCP's
// `body`): the card's format parses into the artifact; any other text is kept whole as the
// revision's markdown and carried as the state summary, so a writer that knows nothing of the
// artifact loses nothing.
import { ZodError } from "zod";
import { type HandoffArtifact, handoffArtifactSchema } from "@/lib/handoff/artifact";
import { HandoffMarkdownError, parseHandoffMarkdown } from "@/lib/handoff/markdown";
import type { UpsertBody, WriteBody } from "./schemas";

/** The artifact's per-field limit (every text field has the same one). */
export const ARTIFACT_TEXT_MAX = 20_000;

/** The longest goal taken from the first line of text that is not the card's format. */
export const FALLBACK_GOAL_MAX = 200;

export const CUT_NOTE = `\n\n[Cut to ${ARTIFACT_TEXT_MAX} characters: the full text is this revision's markdown.]`;

export interface MarkdownBody {
  artifact: HandoffArtifact;
  /** Set when the text is not the card's format: the text itself, stored as the markdown. */
  markdown?: string;
  /** Why the text did not parse as a card (a line number and what was expected). */
  problem?: string;
}

function cut(text: string, max: number, note: string): string {
  if (text.length <= max) return text;
  return text.slice(0, max - note.length) + note;
}

function firstLine(text: string): string {
  const line = text.split(/\r?\n/).find((l) => l.trim() !== "") ?? "";
  const plain = line.replace(/^\s*#+\s*/, "").trim();
  return plain.length <= FALLBACK_GOAL_MAX ? plain : `${plain.slice(0, FALLBACK_GOAL_MAX - 1)}…`;
}

/**
 * The card's markdown parses to its artifact (and is stored as its rendering, which parses back
 * to the same object). Other text becomes `{goal: its first line, state_summary: the text}`, the
 * summary cut to the field's limit with a note, and the text is kept as the markdown.
 */
export function artifactFromMarkdownBody(body: string): MarkdownBody {
  try {
    return { artifact: parseHandoffMarkdown(body) };
  } catch (error) {
    if (!(error instanceof HandoffMarkdownError || error instanceof ZodError)) throw error;
    const problem =
      error instanceof HandoffMarkdownError ? error.message : "a field is over its limit";
    const artifact = handoffArtifactSchema.parse({
      goal: firstLine(body),
      state_summary: cut(body, ARTIFACT_TEXT_MAX, CUT_NOTE),
    });
    return { artifact, markdown: body, problem };
  }
}

/** Either write shape as what an upsert stores; `problem` says why a markdown body was not a card. */
export function upsertBodyOf(write: WriteBody): { body: UpsertBody; problem?: string } {
  if (!("handoff_key" in write)) return { body: write };
  const { artifact, markdown, problem } = artifactFromMarkdownBody(write.body);
  return {
    body: {
      key: write.handoff_key,
      artifact,
      markdown,
      project: write.project,
      repo: write.repo,
      kind: write.kind,
    },
    problem,
  };
}
