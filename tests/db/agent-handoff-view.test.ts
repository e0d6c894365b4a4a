// A real run handed from one agent to another, as the chat page shows it: the live stream and
// the reloaded thread give the same rows — the writer's reply, the "Writer → Editor" divider with
// the reason and the brief, the editor's reply — with each reply labelled by its writer.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { formatMessages, type ListItem } from "@/lib/chat/format-messages";
import type { ChatMessage } from "@/lib/chat/types";
import { loadThreadView } from "@/lib/runs/thread-open";
import { createAgents, setThreadAgent } from "../support/agents";
import { createActor, sendTurn } from "../support/chat";
import { liveMessage, scriptedModel } from "../support/runs";

/** What a reader sees of each row: session, writer or handoff line, and what it shows. */
function seen(items: ListItem[]) {
  return items.map((item) => {
    if (item.kind === "message") {
      const shown = item.message.parts.flatMap((p) =>
        p.type === "text" ? [p.text] : "toolCallId" in p ? [p.type] : [],
      );
      return [item.sessionNumber, item.agent?.name ?? "-", shown.join(" | ")];
    }
    if (item.kind === "session_divider") {
      const h = item.agentHandoff;
      return [item.sessionNumber, h ? `${h.from.name} → ${h.to.name}` : "divider", h?.reason];
    }
    return [item.sessionNumber, item.kind, ""];
  });
}

describe("an agent handoff in the thread view", () => {
  it("shows the same rows live and after a reload, each reply by its writer", async () => {
    process.env.BATON_LOCAL_DELAY_MS = "0";
    const actor = await createActor();
    const threadId = randomUUID();
    await createAgents(actor, [
      { id: "writer", name: "Writer" },
      { id: "editor", name: "Editor", delegation: { canHandoff: false } },
    ]);
    const script = scriptedModel((_prompt, call) => {
      const steps = [
        { text: "Ready." },
        { toolName: "write_file", input: { path: "draft.md", content: "a rough draft" } },
        {
          toolName: "handoff_to_agent",
          input: {
            agentId: "editor",
            handoff: { objective: "Polish draft.md", reason: "Editing is Editor's job." },
          },
        },
        { text: "Polished draft.md." },
      ];
      return steps[call] ?? { text: "Done." };
    });
    const deps = { languageModel: () => script.model };
    await sendTurn(actor, threadId, "hello", deps);
    await setThreadAgent(actor, threadId, "writer");
    const before = await loadThreadView({ userId: actor.id, threadId, withContext: false });
    if (!before) throw new Error("the thread was not stored");

    const request = "write a draft, then have editor polish it";
    const turn = await sendTurn(actor, threadId, request, deps);
    const live: ChatMessage[] = [
      ...before.messages,
      { id: turn.messageId, role: "user", parts: [{ type: "text", text: request }] },
      await liveMessage(turn.parts as never),
    ];
    const after = await loadThreadView({ userId: actor.id, threadId, withContext: false });
    if (!after) throw new Error("the thread was not stored");

    // The request moves into the editor's session: that is what the editor answers.
    const expected = [
      [1, "-", "hello"],
      [1, "Default", "Ready."],
      [1, "Writer", "tool-write_file | tool-handoff_to_agent"],
      [2, "Writer → Editor", "Editing is Editor's job."],
      [2, "-", request],
      [2, "Editor", "Polished draft.md."],
    ];
    const streaming = formatMessages(live, before.sessions);
    expect(seen(streaming.items)).toEqual(expected);
    // Once the sessions are re-read, and after a reload.
    expect(seen(formatMessages(live, after.sessions).items)).toEqual(expected);
    const reloaded = formatMessages(after.messages, after.sessions);
    expect(seen(reloaded.items)).toEqual(expected);

    expect(reloaded.sessionAgents).toEqual({
      1: { id: "default", name: "Default" },
      2: { id: "editor", name: "Editor" },
    });
    expect(streaming.sessionAgents).toEqual(reloaded.sessionAgents);
    for (const formatted of [streaming, reloaded]) {
      const divider = formatted.items.find((item) => item.kind === "session_divider");
      if (divider?.kind !== "session_divider") throw new Error("no divider");
      expect(divider.session.trigger).toBe("agent_handoff");
      expect(divider.session.handoff?.markdown).toContain("## Objective\nPolish draft.md");
    }
  });
});
