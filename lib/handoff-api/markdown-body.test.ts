import { describe, expect, it } from "vitest";
import { handoffArtifactSchema } from "@/lib/handoff/artifact";
import { renderHandoffMarkdown } from "@/lib/handoff/markdown";
import {
  ARTIFACT_TEXT_MAX,
  artifactFromMarkdownBody,
  CUT_NOTE,
  FALLBACK_GOAL_MAX,
  upsertBodyOf,
} from "./markdown-body";

describe("artifactFromMarkdownBody", () => {
  it("a card parses to its artifact, with no markdown of its own to keep", () => {
    const artifact = handoffArtifactSchema.parse({
      goal: "Ship it",
      state_summary: "Almost",
      key_decisions: ["No rewrites"],
    });
    expect(artifactFromMarkdownBody(renderHandoffMarkdown(artifact))).toEqual({ artifact });
  });

  it("a card written by hand (bullets, CRLF, sections missing) still parses", () => {
    const body = "# Handoff: Ship it\r\n\r\n## Key decisions\r\n* No rewrites\r\n";
    const { artifact, markdown } = artifactFromMarkdownBody(body);
    expect(markdown).toBeUndefined();
    expect(artifact).toMatchObject({ goal: "Ship it", key_decisions: ["No rewrites"] });
  });

  it("other text is the state summary, its first line the goal, the text kept and the reason given", () => {
    const body = "\n# Notes from Tuesday\nThe deploy is blocked on DNS.";
    const result = artifactFromMarkdownBody(body);
    expect(result.artifact).toMatchObject({ goal: "Notes from Tuesday", state_summary: body });
    expect(result.markdown).toBe(body);
    expect(result.problem).toMatch(/line 2/);
  });

  it("a card with a section that does not parse is kept as text, not half-read", () => {
    const body = "# Handoff: x\n## Remaining tasks\n- not a task line\n";
    const result = artifactFromMarkdownBody(body);
    expect(result.artifact.remaining_tasks).toEqual([]);
    expect(result.artifact.state_summary).toBe(body);
  });

  it("text over the field's limit is cut to exactly the limit, ending with the note", () => {
    const body = "x".repeat(ARTIFACT_TEXT_MAX + 5);
    const { artifact, markdown } = artifactFromMarkdownBody(body);
    expect(artifact.state_summary).toHaveLength(ARTIFACT_TEXT_MAX);
    expect(artifact.state_summary.endsWith(CUT_NOTE)).toBe(true);
    expect(artifact.goal.length).toBeLessThanOrEqual(FALLBACK_GOAL_MAX);
    expect(markdown).toBe(body);
  });

  it("a card whose section is over the limit is kept as text too", () => {
    const body = `# Handoff: big\n## State summary\n${"y".repeat(ARTIFACT_TEXT_MAX + 1)}\n`;
    const result = artifactFromMarkdownBody(body);
    expect(result.markdown).toBe(body);
    expect(result.artifact.goal).toBe("Handoff: big");
  });
});

describe("upsertBodyOf", () => {
  it("maps the markdown shape onto an upsert and leaves the artifact shape as it is", () => {
    const plain = {
      key: "k",
      artifact: handoffArtifactSchema.parse({ goal: "g", state_summary: "s" }),
    };
    expect(upsertBodyOf(plain)).toEqual({ body: plain });
    const { body } = upsertBodyOf({ handoff_key: "k", project: "p", repo: null, body: "notes" });
    expect(body).toMatchObject({ key: "k", project: "p", repo: null, markdown: "notes" });
    expect(body.artifact.state_summary).toBe("notes");
    expect(body.revision).toBeUndefined();
  });
});
