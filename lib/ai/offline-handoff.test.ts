// The offline model hands work to another agent: `hand off to <slug>: <objective>` and `list
// agents` on the source's side, and on the target's side the brief in its system prompt — read
// the referenced files, then do the objective. One model call per step, as the run loop makes them.
import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { beforeEach, describe, expect, it } from "vitest";
import { renderPlanBlock } from "@/lib/agents/tools/prompt-blocks";
import type { ToolDefinition } from "@/lib/ai/tokens";
import { splitLines } from "@/lib/workspace/text";
import {
  calls,
  createOfflineDriver,
  json,
  type OfflineDriver,
  planItems,
  system,
  user,
} from "@/tests/support/offline-driver";
import { parseAgentBrief } from "./offline-agent-brief";
import { NOTHING_DONE } from "./offline-handoff";
import { OFFLINE_MODEL_NOTICE } from "./offline-model";
import { reviseText } from "./offline-revise-text";

const HANDOFF_TOOLS: ToolDefinition[] = [
  {
    type: "function",
    name: "handoff_to_agent",
    description: "Hand the next stage of this run to another agent with a written brief.",
    inputSchema: {
      type: "object",
      properties: { agentId: { type: "string" }, handoff: { type: "object" } },
      required: ["agentId", "handoff"],
    },
  },
  {
    type: "function",
    name: "list_agents",
    description: "List the agents this one may hand off to.",
    inputSchema: { type: "object", properties: { purpose: { type: "string" } } },
  },
];

const ACCEPTED = json({
  ok: true,
  message: "Handoff accepted for Agent Editor. Your part is complete.",
});

let driver: OfflineDriver;
beforeEach(async () => {
  process.env.BATON_LOCAL_DELAY_MS = "0";
  driver = await createOfflineDriver(undefined, { extraDefinitions: HANDOFF_TOOLS });
});
const next: OfflineDriver["next"] = (...args) => driver.next(...args);
const drive: OfflineDriver["drive"] = (...args) => driver.drive(...args);

const assistant = (text: string): LanguageModelV3Prompt[number] => ({
  role: "assistant",
  content: [{ type: "text", text }],
});

/** One finished turn: the message, every step the model takes, its reply. */
async function turn(prompt: LanguageModelV3Prompt, text: string): Promise<string> {
  prompt.push(user(text));
  const { text: reply } = await drive(prompt);
  prompt.push(assistant(reply));
  return reply;
}

interface BriefFields {
  from?: string;
  title?: string;
  reason?: string;
  objective: string;
  contextSummary?: string;
  workspaceRefs?: string[];
  mustPreserve?: string[];
  completionCriteria?: string[];
  additional?: Record<string, string>;
}

/** The brief a target agent's system prompt holds, in the form the run renders it. */
function renderBrief(b: BriefFields): string {
  const section = (heading: string, body: string | undefined) =>
    body ? [`## ${heading}`, body, ""] : [];
  const list = (heading: string, items: string[] | undefined) =>
    items?.length ? [`## ${heading}`, ...items.map((i) => `- ${i}`), ""] : [];
  return [
    "# Handoff Brief",
    "",
    "You are now responsible for the next stage of this run. " +
      `${b.from ?? "Agent Writer"} handed it to you with the brief below; nothing returns to them.`,
    "",
    ...section("Title", b.title),
    ...section("Reason", b.reason),
    "## Objective",
    b.objective,
    "",
    ...section("Context Summary", b.contextSummary),
    ...list("Workspace References", b.workspaceRefs),
    ...list("Must Preserve", b.mustPreserve),
    ...list("Completion Criteria", b.completionCriteria),
    ...list(
      "Additional Instructions",
      Object.entries(b.additional ?? {}).map(([k, v]) => `${k}: ${v}`),
    ),
    "## Working Notes",
    "- Inspect the referenced files before editing them.",
    "- Preserve earlier decisions unless this brief says to revise them.",
    "- If another agent should continue, hand off again with a clear brief.",
  ].join("\n");
}

describe("offline handoff: the source hands off", () => {
  it("hand off to <slug>: <objective> → one handoff_to_agent call with a brief from the prompt", async () => {
    const prompt: LanguageModelV3Prompt = [system()];
    await turn(prompt, "remember the deadline is Friday");
    await turn(prompt, "write draft.md: this is a draft. it needs work");
    await turn(prompt, "plan: outline; polish");
    prompt.push(user("Hand off to editor: polish draft.md so it reads well"));
    expect(await next(prompt)).toEqual({
      kind: "call",
      id: expect.any(String),
      toolName: "handoff_to_agent",
      input: {
        agentId: "editor",
        handoff: {
          objective: "polish draft.md so it reads well",
          title: "Polish draft.md so it reads well",
          reason: "The user asked for editor to take over.",
          contextSummary: "I wrote draft.md. The plan has 2 items, 0 done; 1 fact is known.",
          workspaceRefs: ["draft.md"],
          mustPreserve: ["the deadline is Friday"],
          completionCriteria: ["polish draft.md so it reads well is done."],
        },
      },
    });
  });

  it("with nothing done first, says so; the title is cut to 60 characters", async () => {
    const objective =
      "Draft the launch post for the new release, with a short intro and three examples.";
    const step = await next([system(), user(`hand off to writer:  ${objective}\n`)]);
    if (step.kind !== "call") throw new Error(`expected a call, got: ${step.text}`);
    const handoff = step.input.handoff as Record<string, unknown>;
    expect(handoff.objective).toBe(objective);
    expect(handoff.contextSummary).toBe(NOTHING_DONE);
    expect(String(handoff.title).length).toBeLessThanOrEqual(60);
    expect(handoff.title).toBe("Draft the launch post for the new release, with a short…");
    expect(handoff).not.toHaveProperty("workspaceRefs");
    expect(handoff).not.toHaveProperty("mustPreserve");
  });

  it("reads the words of the objective as the next agent's, not as commands to itself", async () => {
    const prompt: LanguageModelV3Prompt = [system()];
    prompt.push(user("hand off to editor: remember the port is 8080"));
    const step = await next(prompt);
    if (step.kind !== "call") throw new Error(`expected a call, got: ${step.text}`);
    expect(step.input.handoff).not.toHaveProperty("mustPreserve");
    // The earliest command wins, as everywhere: this is a todo that mentions a handoff.
    expect(await next([system(), user("todo hand off to editor: later")])).toEqual({
      kind: "text",
      text: "Added task t1: hand off to editor: later.",
    });
  });

  it("quotes the error when the handoff is refused", async () => {
    const prompt = [system(), user("hand off to editor: polish draft.md")];
    const step = await next(prompt);
    driver.apply(
      prompt,
      step,
      json({ ok: false, error: "Agent editor does not accept handoffs." }),
    );
    expect(await next(prompt)).toEqual({
      kind: "text",
      text: "I could not hand off to editor: Agent editor does not accept handoffs.",
    });
    const denied = [system(), user("hand off to editor: polish draft.md")];
    driver.apply(denied, await next(denied), { type: "execution-denied", reason: "not now" });
    expect(await next(denied)).toEqual({
      kind: "text",
      text: "I could not hand off to editor: the request was denied (not now).",
    });
  });

  it("list agents → list_agents, then one line per agent", async () => {
    const prompt = [system(), user("List the agents")];
    const step = await next(prompt);
    expect(step).toMatchObject({ toolName: "list_agents", input: { purpose: "handoff" } });
    driver.apply(
      prompt,
      step,
      json({
        ok: true,
        agents: [
          { id: "editor", name: "Editor", description: "Polishes drafts." },
          { id: "critic", name: "Critic", description: "" },
        ],
      }),
    );
    expect(await next(prompt)).toEqual({
      kind: "text",
      text: [
        "I can hand off to 2 agents:",
        "- Editor (editor): Polishes drafts.",
        "- Critic (critic)",
        "",
        "Say “hand off to <id>: <task>” to give one of them the next stage.",
      ].join("\n"),
    });
    const empty = [system(), user("list agents")];
    driver.apply(empty, await next(empty), json({ ok: true, agents: [] }));
    expect(await next(empty)).toEqual({
      kind: "text",
      text: "There are no agents I can hand off to.",
    });
    const failed = [system(), user("list agents")];
    driver.apply(failed, await next(failed), json({ ok: false, error: "Handoffs are off." }));
    expect(await next(failed)).toEqual({
      kind: "text",
      text: "I couldn't list the agents: Handoffs are off.",
    });
  });

  it("offers neither command when the call has no such tool", async () => {
    const plain = await createOfflineDriver();
    expect(await plain.next([system(), user("hand off to editor: polish draft.md")])).toEqual({
      kind: "text",
      text: expect.stringMatching(/no `handoff_to_agent` tool/),
    });
    expect(await plain.next([system(), user("list agents")])).toEqual({
      kind: "text",
      text: expect.stringMatching(/no `list_agents` tool/),
    });
    const none = await next([system(), user("hand off to editor: x")], {
      toolChoice: { type: "none" },
    });
    expect(none).toMatchObject({ kind: "text" });
  });

  it("is named in the notice", () => {
    expect(OFFLINE_MODEL_NOTICE).toContain("hand off to <agent>: <task>");
    expect(OFFLINE_MODEL_NOTICE).toContain("list agents");
  });
});

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
      text: "I've taken over from Agent Writer. My objective: “Think about the launch date.”.",
    });
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
});

describe("offline handoff: reading the brief and revising text", () => {
  it("parses every section of the brief, and stops where the next block begins", () => {
    const text = [
      "You are Baton.",
      "",
      renderBrief({
        from: "Agent Writer",
        title: "Polish the draft",
        reason: "The user asked for editor to take over.",
        objective: "polish draft.md\nkeep it short",
        contextSummary: "I wrote draft.md.",
        workspaceRefs: ["draft.md", "`notes/a.md`"],
        mustPreserve: ["the deadline is Friday"],
        completionCriteria: ["polish draft.md is done."],
        additional: { tone: "plain" },
      }),
      "",
      renderPlanBlock(planItems(["a"])),
    ].join("\n");
    expect(parseAgentBrief(text)).toEqual({
      from: "Agent Writer",
      title: "Polish the draft",
      reason: "The user asked for editor to take over.",
      objective: "polish draft.md\nkeep it short",
      contextSummary: "I wrote draft.md.",
      workspaceRefs: ["draft.md", "notes/a.md"],
      mustPreserve: ["the deadline is Friday"],
      completionCriteria: ["polish draft.md is done."],
      additional: ["tone: plain"],
    });
    expect(parseAgentBrief("You are Baton.")).toBeNull();
    expect(parseAgentBrief(renderBrief({ objective: " " }))).toBeNull();
  });

  it("a revision always differs from what it read, and is a function of it", () => {
    const once = reviseText("draft.md", splitLines(DRAFT));
    expect(reviseText("draft.md", splitLines(DRAFT))).toEqual(once);
    const twice = reviseText("draft.md", splitLines(once.text));
    expect(twice.text).not.toBe(once.text);
    expect(twice.text).toBe(once.text.replace("(pass 1)", "(pass 2)"));
    expect(twice.changes).toEqual(["marked it as revision 2"]);
    const code = ["# Code", "", "```", "const x = 1  ", "```"];
    expect(reviseText("c.md", code).text).toBe(
      "# Code\n\n```\nconst x = 1  \n```\n\n_Revised (pass 1)._\n",
    );
    expect(reviseText("empty.txt", []).text).toBe("# Empty\n\n_Revised (pass 1)._\n");
    expect(reviseText("a.md", ["see e.g. the docs.  then go"]).text).toContain(
      "See e.g. the docs. Then go.",
    );
  });
});
