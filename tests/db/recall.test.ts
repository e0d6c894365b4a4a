// search_history with the offline model: a note given early, two threshold resets later, comes
// back from `recall <words>` cited with the part of the conversation it was said in. The search
// never reaches another user's thread, copes with queries of nothing searchable or of 10 KB, and
// its snippets are redacted like everything else the model is sent.
import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { getHandoffRevisionById } from "@/db/queries/handoff-reads";
import { listThreadMessages } from "@/db/queries/messages";
import { searchThreadHistory } from "@/db/queries/recall";
import { listSessions } from "@/db/queries/sessions";
import type { Actor } from "@/lib/auth/server";
import type { ContextResetPart } from "@/lib/chat/types";
import { createAgents, setThreadAgent, type TestAgent } from "../support/agents";
import { createActor, replyText, type SsePart, sendTurn } from "../support/chat";

const saved = { ...process.env };

beforeEach(() => {
  process.env.BATON_LOCAL_DELAY_MS = "0";
  process.env.BATON_LOCAL_HANDOFF_DELAY_MS = "0";
  process.env.BATON_LOCAL_CONTEXT_WINDOW = "4096";
});

afterEach(() => {
  process.env = { ...saved };
});

const filler = (i: number) =>
  `Chatter number ${i} about the weather, the trains and the walk along the river that we took ` +
  "yesterday afternoon before the rain started, and then the long story of the ferry, the " +
  "lighthouse, the fish market, the old bookshop and the café by the station";

function resets(parts: SsePart[]): ContextResetPart[] {
  return parts
    .filter((p) => p.type === "data-context-reset")
    .map((p) => p.data as unknown as ContextResetPart);
}

interface SearchOutput {
  ok: boolean;
  count?: number;
  note?: string;
  error?: string;
  results?: { cite: string; source: string; part: number | null; role?: string; snippet: string }[];
}

type ToolPart = SsePart & { toolName?: string; toolCallId?: string; output?: unknown };

function searchOutputs(parts: SsePart[]): SearchOutput[] {
  const all = parts as ToolPart[];
  const calls = new Set(
    all
      .filter((p) => p.type === "tool-input-available" && p.toolName === "search_history")
      .map((p) => p.toolCallId),
  );
  return all
    .filter((p) => p.type === "tool-output-available" && calls.has(p.toolCallId))
    .map((p) => p.output as SearchOutput);
}

let turn = 0;

/** Fills the thread with chatter until `count` threshold resets have happened. */
async function resetTimes(actor: Actor, threadId: string, count: number) {
  let done = 0;
  for (let i = 0; i < 120 && done < count; i++) {
    const events = resets((await sendTurn(actor, threadId, filler(turn++))).parts);
    if (events.length === 0) continue;
    expect(events.at(-1)?.event, events.at(-1)?.reason).toBe("reset_complete");
    done++;
  }
  expect(done).toBe(count);
}

/*
 * Only search_history among its tools and a brief of at most 6% of the window: the first reset
 * cannot carry a dozen noted facts and drops the oldest unpinned ones, which recall still finds.
 */
const TERSE_AGENT: TestAgent = {
  id: "terse",
  toolsAllow: ["search_history"],
  briefShare: 0.06,
};

describe("search_history", () => {
  it("recalls a note the brief did not carry, with the part it was said in", async () => {
    const actor = await createActor();
    const threadId = randomUUID();
    await createAgents(actor, [TERSE_AGENT]);
    await sendTurn(actor, threadId, "Let's catalogue the harbour archive together.");
    await setThreadAgent(actor, threadId, TERSE_AGENT.id);
    await sendTurn(actor, threadId, "note the harbour gate code is teal4471");
    for (let i = 1; i <= 12; i++) {
      await sendTurn(
        actor,
        threadId,
        `note shelf ${i} of the archive holds the ledgers of ${1900 + i}`,
      );
    }
    await resetTimes(actor, threadId, 1);

    // The first reset left the note out of the brief, and said so on its revision.
    const [, second] = await listSessions({ userId: actor.id, threadId });
    const revisionId = second?.handoffRevisionId ?? "";
    const first = await getHandoffRevisionById({ ownerId: actor.id, revisionId });
    expect(first?.dropped.map((d) => d.item).join("\n")).toContain("teal4471");
    expect(JSON.stringify(first?.artifact)).not.toContain("teal4471");

    const sent = await sendTurn(actor, threadId, "recall harbour gate code");
    const [output] = searchOutputs(sent.parts);
    const fromNote = output?.results?.find((r) => r.source === "message" && r.role === "user");
    expect(fromNote).toMatchObject({ part: 1 });
    expect(fromNote?.snippet).toContain("teal4471");
    expect(replyText(sent.parts)).toContain("part 1, user message");
  });

  it("recalls a note from an earlier part of the conversation with its part number", async () => {
    const actor = await createActor();
    const threadId = randomUUID();
    await sendTurn(actor, threadId, "note the harbour gate code is teal4471");
    await sendTurn(actor, threadId, "write notes/ferry.md: The ferry leaves pier quokka at nine.");
    await resetTimes(actor, threadId, 2);
    const sessions = await listSessions({ userId: actor.id, threadId });
    expect(sessions.map((s) => s.number)).toEqual([1, 2, 3]);

    const sent = await sendTurn(actor, threadId, "recall harbour gate code");
    const [output] = searchOutputs(sent.parts);
    expect(output?.ok).toBe(true);
    const fromNote = output?.results?.find((r) => r.source === "message" && r.role === "user");
    expect(fromNote?.part).toBe(1);
    expect(fromNote?.cite).toMatch(/^part 1, user message /);
    expect(fromNote?.snippet).toContain("«harbour» «gate» «code» is teal4471");
    const reply = replyText(sent.parts);
    expect(reply).toMatch(/^I found \d+ earlier mentions? of “harbour gate code”:/);
    expect(reply).toContain("part 1, user message");
    expect(reply).toContain("teal4471");
    // So is the brief the first reset wrote (the one this part started from is in view).
    expect(output?.results?.filter((r) => r.source === "handoff").map((r) => r.cite)).toEqual([
      "handoff brief revision 1, written at the end of part 1",
    ]);

    // Earlier file versions are searched too, cited by path and version.
    const file = await sendTurn(actor, threadId, "recall pier quokka");
    const fromFile = searchOutputs(file.parts)[0]?.results?.find((r) => r.source === "file");
    expect(fromFile).toMatchObject({
      part: 1,
      cite: "part 1, file notes/ferry.md version 1",
      snippet: "notes/ferry.md The ferry leaves «pier» «quokka» at nine",
    });

    // Only recall reads the search vectors: a page of messages leaves them behind.
    const page = await listThreadMessages({ userId: actor.id, threadId, limit: 100 });
    expect(page.messages.length).toBeGreaterThan(4);
    for (const row of page.messages) expect(Object.keys(row)).not.toContain("searchTsv");
  });

  it("finds nothing said in the current part (it is in view) and nothing of another user's thread", async () => {
    const owner = await createActor();
    const other = await createActor();
    const ownThread = randomUUID();
    const otherThread = randomUUID();
    await sendTurn(other, otherThread, "note the zebra password hint is marmalade");
    await resetTimes(other, otherThread, 1);
    await sendTurn(owner, ownThread, "note the quokka colour is orange");

    const sent = await sendTurn(owner, ownThread, "recall zebra marmalade");
    expect(searchOutputs(sent.parts)[0]).toMatchObject({ ok: true, count: 0 });
    expect(replyText(sent.parts)).toContain("I found nothing for “zebra marmalade”");
    const same = await sendTurn(owner, ownThread, "recall quokka");
    expect(searchOutputs(same.parts)[0]).toMatchObject({ ok: true, count: 0 });

    // The query itself, asked for the other user's thread with the owner's id, finds nothing;
    // asked by its owner, it finds the note.
    const [otherSession] = await listSessions({ userId: owner.id, threadId: ownThread });
    const scope = { threadId: otherThread, currentSessionId: otherSession?.id ?? randomUUID() };
    const q = "zebra marmalade";
    expect(await searchThreadHistory(getDb(), { ...scope, userId: owner.id }, q, 5)).toEqual([]);
    const own = await searchThreadHistory(getDb(), { ...scope, userId: other.id }, q, 5);
    expect(own.map((h) => [h.source, h.sessionNumber, h.role])).toContainEqual([
      "message",
      1,
      "user",
    ]);
  });

  it("answers queries of only common words, of punctuation or of 10 KB sensibly", async () => {
    const actor = await createActor();
    const threadId = randomUUID();
    await sendTurn(actor, threadId, "note the lighthouse keeper is called Morag");
    await resetTimes(actor, threadId, 1);

    for (const query of ["the and of it", "!!! ??? ((( ''' & | -", "«»"]) {
      const sent = await sendTurn(actor, threadId, `recall ${query}`);
      const [output] = searchOutputs(sent.parts);
      expect(output).toMatchObject({ ok: true, count: 0 });
      expect(output?.note).toContain("no words to search for");
      expect(replyText(sent.parts)).toContain("I found nothing for");
    }

    const long = `Morag ${"lighthouse keeper ".repeat(600)}`;
    expect(long.length).toBeGreaterThan(10_000);
    const sent = await sendTurn(actor, threadId, `recall ${long}`);
    const [output] = searchOutputs(sent.parts);
    expect(output?.ok).toBe(true);
    expect(output?.note).toContain("The query was cut to its first 500 characters");
    const said = output?.results?.find((r) => r.source === "message" && r.role === "user");
    expect(said).toMatchObject({ part: 1, snippet: "«lighthouse» «keeper» is called «Morag»" });
  });

  it("redacts secrets in snippets", async () => {
    const actor = await createActor();
    const threadId = randomUUID();
    const secret = "sk-proj-4f9Qz7LmX2aB8cD1eF6gH3jK5nP0rS";
    await sendTurn(actor, threadId, `note the billing service key is ${secret} for staging`);
    await resetTimes(actor, threadId, 1);

    // The text searched still holds the secret as the user typed it.
    const [current] = (await listSessions({ userId: actor.id, threadId })).slice(-1);
    const scope = { userId: actor.id, threadId, currentSessionId: current?.id ?? "" };
    const raw = await searchThreadHistory(getDb(), scope, "billing service key", 5);
    expect(raw.some((hit) => hit.text.includes(secret))).toBe(true);

    const sent = await sendTurn(actor, threadId, "recall billing service key");
    const [output] = searchOutputs(sent.parts);
    expect(output?.results?.length).toBeGreaterThan(0);
    const text = JSON.stringify(output);
    expect(text).toContain("«billing» «service» «key» is [REDACTED:");
    expect(text).not.toContain(secret);
    expect(text).not.toContain("4f9Qz7LmX2aB8cD1eF6gH3jK5nP0rS");
    expect(replyText(sent.parts)).not.toContain(secret);
  });
});
