// A long chain of threshold resets with the offline model in a 4096-token window: the brief stays
// bounded (session-start utilization flat), decisions, pins, open tasks and the last request are
// always carried, and whatever a reset left out is listed on its revision. A reset whose pins
// alone exceed the bound fails with that reason, lists the pins for the card, and loses nothing.
import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { listHandoffRevisions } from "@/db/queries/handoff-reads";
import { listSessionMessages } from "@/db/queries/messages";
import { listSessions } from "@/db/queries/sessions";
import { formatMessages } from "@/lib/chat/format-messages";
import type { ContextPart, ContextResetPart } from "@/lib/chat/types";
import { handoffArtifactSchema } from "@/lib/handoff/artifact";
import { LAST_USER_REQUEST_PREFIX } from "@/lib/handoff/merge";
import { loadThreadView } from "@/lib/runs/thread-open";
import { createAgents, setThreadAgent, type TestAgent } from "../support/agents";
import { createActor, replyText, type SsePart, sendTurn } from "../support/chat";
import { promptTexts, spyModel } from "../support/spy-model";

const saved = { ...process.env };

beforeEach(() => {
  process.env.BATON_LOCAL_DELAY_MS = "0";
  process.env.BATON_LOCAL_HANDOFF_DELAY_MS = "0";
  process.env.BATON_LOCAL_CONTEXT_WINDOW = "4096";
});

afterEach(() => {
  process.env = { ...saved };
});

const resetParts = (parts: SsePart[]) =>
  parts
    .filter((p) => p.type === "data-context-reset")
    .map((p) => p.data as unknown as ContextResetPart);
const contextParts = (parts: SsePart[]) =>
  parts.filter((p) => p.type === "data-context").map((p) => p.data as unknown as ContextPart);

const filler = (i: number) =>
  `Chatter number ${i} about the weather, the harbour, the trains and the walk along the river ` +
  "that we took yesterday afternoon before the rain started, and then the long story of the " +
  "ferry, the lighthouse, the fish market, the old bookshop and the café by the station where " +
  "we waited for the last train home";

const RESETS = 10;

/*
 * The default agent's tool definitions alone take 868 tokens, 21% of a 4096-token window, so a
 * session of it can never start at 25% with any brief at all. This agent has three tools (9%)
 * and a brief share of 10%, small enough that the bound bites within ten resets and unpinned
 * facts are dropped (and listed) to keep session starts flat.
 */
const NOTES_AGENT: TestAgent = {
  id: "notes",
  toolsAllow: ["list_files", "read_file", "write_file"],
  briefShare: 0.1,
};

/** What the scripted user says in session `s` (0-based) before filling it up. */
function scriptFor(s: number): string[] {
  const lines = [`note fact ${s} is that build ${s} passed`, `decide option ${s} uses plan ${s}`];
  if (s % 2 === 0) lines.push(`remember pin ${s / 2} keeps port ${8000 + s}`);
  if (s < 8) lines.push(`todo task number ${s + 1}`);
  // t1, t3, t5, t7 are done later in the chain; t2, t4, t6, t8 stay open.
  if (s >= 2 && s % 2 === 0 && s <= 8) lines.push(`done t${s - 1}`);
  return lines;
}

describe("a chain of ten threshold resets", () => {
  it("keeps the brief bounded and carries every decision, pin, open task and the last request", async () => {
    const actor = await createActor();
    const threadId = randomUUID();
    const spy = spyModel();
    const deps = { languageModel: () => spy.model };
    await createAgents(actor, [NOTES_AGENT]);
    await sendTurn(actor, threadId, "Let's keep notes on the release together.", deps);
    await setThreadAgent(actor, threadId, NOTES_AGENT.id);

    const decisions: string[] = [];
    const pins: string[] = [];
    const notes: string[] = [];
    const startUtilization: number[] = [];
    let lastTrigger = "";
    let turn = 0;

    for (let s = 0; s < RESETS; s++) {
      for (const line of scriptFor(s)) {
        const sent = await sendTurn(actor, threadId, line, deps);
        expect(resetParts(sent.parts)).toEqual([]);
        if (line.startsWith("decide ")) decisions.push(line.slice("decide ".length));
        if (line.startsWith("remember ")) pins.push(line.slice("remember ".length));
        if (line.startsWith("note ")) notes.push(line.slice("note ".length));
      }
      // Fill the session until a threshold reset happens.
      let done: ContextResetPart | undefined;
      for (let i = 0; i < 80 && !done; i++) {
        const text = filler(turn++);
        const sent = await sendTurn(actor, threadId, text, deps);
        const events = resetParts(sent.parts);
        if (events.length === 0) continue;
        done = events.at(-1);
        expect(done?.event, done?.reason).toBe("reset_complete");
        lastTrigger = text;
        // The new session's first call: what it starts with (tool definitions included).
        const after = contextParts(sent.parts).at(-1);
        expect(after).toBeDefined();
        startUtilization.push(after?.utilization ?? 1);
      }
      expect(done?.sessionNumber).toBe(s + 2);
    }

    // Flat: every session starts at most 25% full, the last within 5 points of the first.
    for (const u of startUtilization) expect(u).toBeLessThanOrEqual(0.25);
    const first = startUtilization[0] ?? 0;
    const last = startUtilization.at(-1) ?? 1;
    expect(Math.abs(last - first)).toBeLessThanOrEqual(0.05);

    // The last session's prompt carries every decision, pin, open task and the last request.
    const sessions = await listSessions({ userId: actor.id, threadId });
    expect(sessions).toHaveLength(RESETS + 1);
    const lastPrompt = spy.calls.filter((c) => !c.json).at(-1);
    const system = promptTexts(lastPrompt?.prompt ?? [])
      .filter((t) => t.role === "system")
      .map((t) => t.text)
      .join("\n");
    for (const item of [...decisions, ...pins]) expect(system).toContain(item);
    for (const id of ["t2", "t4", "t6", "t8"]) expect(system).toContain(`[ ] ${id}: `);
    expect(system).toContain(`${LAST_USER_REQUEST_PREFIX}${lastTrigger}`);

    // And the model says so when asked.
    const known = replyText((await sendTurn(actor, threadId, "what do you know?", deps)).parts);
    for (const item of [...decisions, ...pins]) expect(known).toContain(item);
    for (const n of [2, 4, 6, 8]) expect(known).toContain(`t${n}: task number ${n}`);
    for (const n of [1, 3, 5, 7]) expect(known).not.toContain(`t${n}: task number ${n}\n`);
    expect(known).toContain(lastTrigger);

    // Every item that left the brief is listed on the revision that left it out.
    const revisions = (await listHandoffRevisions({ ownerId: actor.id, key: threadId })).sort(
      (a, b) => a.revision - b.revision,
    );
    expect(revisions).toHaveLength(RESETS);
    let previousFacts: string[] = [];
    for (const rev of revisions) {
      const artifact = handoffArtifactSchema.parse(rev.artifact);
      const session = sessions.find((x) => x.number === rev.revision);
      const said = session
        ? (await listSessionMessages({ userId: actor.id, threadId, sessionId: session.id }))
            .filter((m) => m.role === "user")
            .flatMap((m) => (m.parts as { text?: string }[]).map((p) => p.text ?? ""))
            .filter((t) => t.startsWith("note "))
            .map((t) => t.slice("note ".length))
        : [];
      const carried = [...artifact.confirmed_facts, ...artifact.must_preserve];
      for (const fact of [...previousFacts, ...said]) {
        if (carried.includes(fact)) continue;
        expect(rev.dropped, `revision ${rev.revision}`).toContainEqual({
          field: "confirmed_facts",
          item: fact,
        });
      }
      previousFacts = artifact.confirmed_facts;
      for (const pin of pins.slice(0, Math.ceil(rev.revision / 2))) {
        expect(artifact.must_preserve).toContain(pin);
      }
      expect(artifact.state_summary).not.toContain("Before that");
    }
    expect(notes).toHaveLength(RESETS);
    // Ten resets of ~40 turns each, with handoffs drafted ahead: a budget of its own.
  }, 240_000);

  it("fails the reset when the pins alone exceed the bound, and loses nothing", async () => {
    const actor = await createActor();
    const threadId = randomUUID();
    await createAgents(actor, [{ ...NOTES_AGENT, id: "tight", briefShare: 0.03 }]);
    await sendTurn(actor, threadId, "Let's keep notes on the release together.");
    await setThreadAgent(actor, threadId, "tight");
    const pins = Array.from(
      { length: 6 },
      (_, i) => `pin ${i} says the staging cluster in region ${i} keeps its nightly backups`,
    );
    for (const pin of pins) await sendTurn(actor, threadId, `remember ${pin}`);

    let failed: ContextResetPart | undefined;
    for (let i = 0; i < 80 && !failed; i++) {
      const events = resetParts((await sendTurn(actor, threadId, filler(i))).parts);
      expect(events.map((e) => e.event)).not.toContain("reset_complete");
      failed = events.find((e) => e.event === "reset_failed");
    }
    expect(failed?.reason).toMatch(
      /pinned items.*alone take \d+ tokens, more than the \d+ a brief may take \(3% of the window\)/,
    );
    expect(failed?.reason).toContain("Nothing was lost");
    // The failed reset's card lists the pins, the items the user can let go of.
    expect(failed?.code).toBe("brief_too_large");
    expect(failed?.pins).toEqual(pins);
    const view = await loadThreadView({ userId: actor.id, threadId, limit: 500 });
    if (!view) throw new Error("no view");
    const cards = formatMessages(view.messages, view.sessions).items.flatMap((item) =>
      item.kind === "session_divider" && item.failed ? [item] : [],
    );
    expect(cards.length).toBeGreaterThan(0);
    expect(cards.at(-1)).toMatchObject({ sessionNumber: 1, failed: { pins } });

    // Nothing moved or was written: one session holding every message, no revision.
    const sessions = await listSessions({ userId: actor.id, threadId });
    expect(sessions).toHaveLength(1);
    expect(await listHandoffRevisions({ ownerId: actor.id, key: threadId })).toEqual([]);
    const texts = (
      await listSessionMessages({ userId: actor.id, threadId, sessionId: sessions[0]?.id ?? "" })
    ).flatMap((m) => (m.parts as { text?: string }[]).map((p) => p.text ?? ""));
    for (const pin of pins) expect(texts).toContain(`remember ${pin}`);
    const known = replyText((await sendTurn(actor, threadId, "what do you know?")).parts);
    for (const pin of pins) expect(known).toContain(pin);
  });
});
