// The offline model as the agent a run was handed to: with a brief in its system prompt and the
// hand-off request still the latest message, it reads the referenced files, then does the
// brief's objective (a revision, any command it knows, or an acknowledgement).
import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { beforeEach, describe, expect, it } from "vitest";
import { splitLines } from "@/core/workspace/text";
import { renderPlanBlock } from "@/lib/agents/tools/prompt-blocks";
import {
  HANDOFF_ACCEPTED as ACCEPTED,
  assistant,
  type BriefFields,
  turn as finishTurn,
  handoffToolDefinitions,
  agentBriefMarkdown as renderBrief,
} from "@/tests/support/agent-brief";
import {
  calls,
  createOfflineDriver,
  type OfflineDriver,
  planItems,
  system,
  user,
} from "@/tests/support/offline-driver";

let driver: OfflineDriver;
beforeEach(async () => {
  process.env.BATON_LOCAL_DELAY_MS = "0";
  driver = await createOfflineDriver(undefined, {
    extraDefinitions: await handoffToolDefinitions(),
  });
});
const next: OfflineDriver["next"] = (...args) => driver.next(...args);
const drive: OfflineDriver["drive"] = (...args) => driver.drive(...args);
const turn = (prompt: LanguageModelV3Prompt, text: string) => finishTurn(driver, prompt, text);

const DRAFT = "this is a draft.  it needs work\n\n\n- first point\nthe end   \n";

describe("offline handoff: the target works on the brief", () => {
  const editorPrompt = (brief: BriefFields, request = "hand off to editor: polish draft.md") => [
    system(renderBrief(brief)),
    user(request),
  ];

  it("reads each referenced file, polishes the one named, then says what changed", async () => {
    driver.ws.files.set("draft.md", DRAFT);
    driver.ws.files.set("style.md", "Short sentences.\n");
    const prompt = editorPrompt({
      objective: "polish draft.md",
      workspaceRefs: ["style.md", "draft.md"],
    });
    const { steps, text } = await drive(prompt);
    expect(calls(steps).map((s) => `${s.toolName} ${s.input.path}`)).toEqual([
      "read_file style.md",
      "read_file draft.md",
      "write_file draft.md",
    ]);
    const polished = driver.ws.files.get("draft.md");
    expect(polished).toBe(
      [
        "# Draft",
        "",
        "This is a draft. It needs work.",
        "",
        "- First point",
        "The end.",
        "",
        "_Revised (pass 1)._",
        "",
      ].join("\n"),
    );
    expect(text).toBe(
      "Polished `draft.md`: added the heading “# Draft”, capitalized 4 sentences, ended 2 lines " +
        "with a period, tidied the spacing of 2 lines, removed 1 extra blank line and marked it " +
        "as revision 1.",
    );
  });

  it("reads a file the objective names but the brief does not reference", async () => {
    driver.ws.files.set("notes/launch-plan.md", "# Launch\n\nship it\n");
    const { steps, text } = await drive(
      editorPrompt({ objective: "revise notes/launch-plan.md for tone." }),
    );
    expect(calls(steps).map((s) => s.toolName)).toEqual(["read_file", "write_file"]);
    expect(driver.ws.files.get("notes/launch-plan.md")).toBe(
      "# Launch\n\nShip it.\n\n_Revised (pass 1)._\n",
    );
    expect(text).toMatch(/^Revised `notes\/launch-plan\.md` \(for tone\): capitalized 1 sentence/);
  });

  it("reads a long file to its end before writing it back whole; leaves a huge one alone", async () => {
    const long = Array.from({ length: 300 }, (_, i) => `line ${i + 1} of the long draft`);
    driver.ws.files.set("long.md", `${long.join("\n")}\n`);
    const { steps, text } = await drive(editorPrompt({ objective: "polish long.md" }));
    const made = calls(steps).map((s) => `${s.toolName} ${s.input.startLine ?? ""}`.trim());
    expect(made.at(-1)).toBe("write_file");
    expect(made.slice(0, -1).every((call) => call.startsWith("read_file"))).toBe(true);
    expect(made.length).toBeGreaterThan(2);
    const written = splitLines(driver.ws.files.get("long.md") ?? "");
    expect(written.slice(0, 3)).toEqual(["# Long", "", "Line 1 of the long draft."]);
    expect(written).toContain("Line 300 of the long draft.");
    expect(written).toHaveLength(300 + 4);
    expect(text).toMatch(/^Polished `long\.md`: added the heading “# Long”, capitalized 300/);

    driver.ws.files.set("huge.md", "word ".repeat(8000));
    const huge = await drive(editorPrompt({ objective: "polish huge.md" }));
    expect(calls(huge.steps).map((s) => s.toolName)).toEqual(["read_file"]);
    expect(huge.text).toBe(
      "`huge.md` is 40000 bytes; I polish files of up to 32768 bytes, so I left it unchanged.",
    );
  });

  it("says so when the file it should polish cannot be read", async () => {
    const { steps, text } = await drive(
      editorPrompt({ objective: "polish draft.md", workspaceRefs: ["draft.md"] }),
    );
    expect(calls(steps).map((s) => s.toolName)).toEqual(["read_file"]);
    expect(text).toBe('I couldn\'t read `draft.md`: "draft.md" does not exist.');
  });

  it("an objective that is a hand-off command hands off again, with what it was handed", async () => {
    driver.ws.files.set("draft.md", DRAFT);
    const prompt = editorPrompt(
      {
        from: "Agent Writer",
        objective: "hand off to critic: polish draft.md",
        contextSummary: "I wrote draft.md.",
        workspaceRefs: ["draft.md"],
        mustPreserve: ["the deadline is Friday"],
      },
      "hand off to editor: hand off to critic: polish draft.md",
    );
    const read = await next(prompt);
    expect(read).toMatchObject({ toolName: "read_file", input: { path: "draft.md" } });
    driver.apply(prompt, read);
    const step = await next(prompt);
    expect(step).toMatchObject({
      toolName: "handoff_to_agent",
      input: {
        agentId: "critic",
        handoff: {
          objective: "polish draft.md",
          contextSummary: "1 fact is known. Earlier: I wrote draft.md.",
          workspaceRefs: ["draft.md"],
          mustPreserve: ["the deadline is Friday"],
        },
      },
    });
    driver.apply(prompt, step, ACCEPTED);

    // The critic's session: the same request, its own brief. It polishes; it never hands off.
    const critic = [
      system(renderBrief({ objective: "polish draft.md", workspaceRefs: ["draft.md"] })),
      user("hand off to editor: hand off to critic: polish draft.md"),
    ];
    const { steps, text } = await drive(critic);
    expect(calls(steps).map((s) => s.toolName)).toEqual(["read_file", "write_file"]);
    expect(text).toMatch(/^Polished `draft\.md`: /);
  });

  it("does an objective that is another command, after reading the references", async () => {
    driver.ws.files.set("draft.md", DRAFT);
    const { steps, text } = await drive(
      editorPrompt({ objective: "write summary.md: Short.", workspaceRefs: ["draft.md"] }),
    );
    expect(calls(steps).map((s) => `${s.toolName} ${s.input.path}`)).toEqual([
      "read_file draft.md",
      "write_file summary.md",
    ]);
    expect(text).toBe("Wrote `summary.md` (1 word, version 1).");
    const read = await drive(
      editorPrompt({ objective: "read draft.md", workspaceRefs: ["draft.md"] }),
    );
    expect(calls(read.steps)).toHaveLength(1);
    expect(read.text).toMatch(/^`draft\.md` has 5 lines; I read all of it\./);
  });

  it("acknowledges any other objective, quoting it", async () => {
    const prompt = editorPrompt({ objective: "Think about the launch date." });
    prompt.push(user("Continue the task from the carried-over context."));
    expect(await next(prompt)).toEqual({
      kind: "text",
      text: "I've taken over from Agent Writer. My objective: “Think about the launch date.”",
    });
    driver.ws.files.set("style.md", "Short sentences.\n");
    const read = await drive(
      editorPrompt({ from: "Agent Critic", objective: "Check it", workspaceRefs: ["style.md"] }),
    );
    expect(calls(read.steps).map((s) => s.toolName)).toEqual(["read_file"]);
    expect(read.text).toBe(
      "I've taken over from Agent Critic. I read `style.md`. My objective: “Check it”",
    );
  });

  it("knows the brief's Must Preserve facts, and answers later messages normally", async () => {
    const prompt: LanguageModelV3Prompt = editorPrompt({
      objective: "remember the launch is in May",
      mustPreserve: ["the port is 8080"],
    });
    expect((await drive(prompt)).text).toBe("Noted — I'll remember that the launch is in May.");
    prompt.push(assistant("Noted — I'll remember that the launch is in May."));
    const known = await turn(prompt, "what do you know?");
    expect(known).toContain("**Facts**\n- the port is 8080\n- the launch is in May\n");
    expect(await turn(prompt, "remember the port is 8080")).toBe(
      "I already know that the port is 8080.",
    );
    // A handoff asked for later in the session is a new request, not the brief's.
    prompt.push(user("hand off to critic: review the plan"));
    expect(await next(prompt)).toMatchObject({
      toolName: "handoff_to_agent",
      input: {
        agentId: "critic",
        handoff: {
          objective: "review the plan",
          mustPreserve: ["the port is 8080", "the launch is in May"],
        },
      },
    });
  });

  it("works through a plan handed over, and lists the files it wrote", async () => {
    const prompt = [
      system(
        renderBrief({ objective: "work through the plan" }),
        renderPlanBlock(planItems(["a"])),
      ),
      user("hand off to editor: work through the plan"),
    ];
    const { steps, text } = await drive(prompt);
    expect(calls(steps).map((s) => s.toolName)).toEqual([
      "update_plan",
      "write_file",
      "update_plan",
    ]);
    expect(text).toMatch(/all 1 item is done/);
  });

  it("does a hand-off addressed to itself (its request carried past a reset) instead of handing off", async () => {
    driver.ws.files.set("draft.md", DRAFT);
    const prompt = [
      system(
        "You are Editor.\n\n## Handing off to another agent\n\nHere you are the agent Editor (editor). When another agent is better placed, call handoff_to_agent.",
      ),
      user("hand off to editor: polish draft.md"),
    ];
    const { steps, text } = await drive(prompt);
    expect(calls(steps).map((s) => s.toolName)).not.toContain("handoff_to_agent");
    expect(calls(steps).at(-1)).toMatchObject({
      toolName: "write_file",
      input: { path: "draft.md" },
    });
    expect(text).toMatch(/^Polished/);
  });

  it("still hands off to another agent named in a later session's request", async () => {
    const prompt = [
      system("Here you are the agent Editor (editor). Call handoff_to_agent to hand off."),
      user("hand off to critic: review draft.md"),
    ];
    expect(await next(prompt)).toMatchObject({
      toolName: "handoff_to_agent",
      input: { agentId: "critic" },
    });
  });
});
