// The offline model as the agent that hands off: `hand off to <slug>: <objective>` builds the
// brief from what its prompt shows, a refusal is answered in text, `list agents` lists them. One
// model call per step, as the run loop makes them.
import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { beforeEach, describe, expect, it } from "vitest";
import { turn as finishTurn, handoffToolDefinitions } from "@/tests/support/agent-brief";
import {
  createOfflineDriver,
  json,
  type OfflineDriver,
  system,
  user,
} from "@/tests/support/offline-driver";
import { NOTHING_DONE } from "./handoff";
import { OFFLINE_MODEL_NOTICE } from "./model";

let driver: OfflineDriver;
beforeEach(async () => {
  process.env.BATON_LOCAL_DELAY_MS = "0";
  driver = await createOfflineDriver(undefined, {
    extraDefinitions: await handoffToolDefinitions(),
  });
});
const next: OfflineDriver["next"] = (...args) => driver.next(...args);
const turn = (prompt: LanguageModelV3Prompt, text: string) => finishTurn(driver, prompt, text);

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
