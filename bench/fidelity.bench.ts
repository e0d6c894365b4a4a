// Handoff fidelity over long chains: the offline model in a 4,096-token window, a scripted user
// giving notes, decisions, pins and todos in every session, then filler until a threshold reset.
// After the last reset: the kept fraction per category (what the last session's brief still
// holds) and the session-start utilization at every reset (tool definitions counted).
// Run: npx tsx --conditions=react-server bench/fidelity.bench.ts   (DATABASE_URL=… for Postgres)
import { randomUUID } from "node:crypto";
import { listSessions } from "@/db/queries/sessions";
import { updateThread } from "@/db/queries/threads";
import { agentProfiles, users } from "@/db/schema";
import { findProfile } from "@/lib/agents/profiles";
import { loadSessionContext } from "@/lib/context/session-context";
import { runChatTurn } from "@/lib/runs/turn";
import { openScratchDatabase, table } from "./support";

process.env.BATON_LOCAL_DELAY_MS = "0";
process.env.BATON_LOCAL_HANDOFF_DELAY_MS = "0";
process.env.BATON_LOCAL_CONTEXT_WINDOW = "4096";

const CHAINS = (process.env.BENCH_CHAINS ?? "5,10,20").split(",").map(Number);

const filler = (i: number) =>
  `Chatter number ${i} about the weather, the harbour, the trains and the walk along the river ` +
  "that we took yesterday afternoon before the rain started, and then the long story of the " +
  "ferry, the lighthouse, the fish market, the old bookshop and the café by the station where " +
  "we waited for the last train home";

interface Given {
  notes: string[];
  decisions: string[];
  pins: string[];
  open: Map<string, string>;
  lastRequest: string;
}

function scriptFor(s: number, given: Given): string[] {
  const note = `fact ${s} is that build ${s} passed`;
  const decision = `option ${s} uses plan ${s}`;
  given.notes.push(note);
  given.decisions.push(decision);
  const lines = [`note ${note}`, `decide ${decision}`, `todo task number ${s + 1}`];
  given.open.set(`t${s + 1}`, `task number ${s + 1}`);
  if (s % 2 === 0) {
    const pin = `pin ${s / 2} keeps port ${8000 + s}`;
    given.pins.push(pin);
    lines.push(`remember ${pin}`);
  }
  if (s % 2 === 1) {
    lines.push(`done t${s}`);
    given.open.delete(`t${s}`);
  }
  return lines;
}

async function send(userId: string, threadId: string, text: string) {
  const response = await runChatTurn({
    actor: { id: userId, isAnonymous: true, email: null, name: "bench" },
    request: {
      trigger: "submit-message",
      id: threadId,
      message: { id: randomUUID(), role: "user", parts: [{ type: "text", text }] },
    },
    signal: new AbortController().signal,
    deps: {},
  });
  const body = await response.text();
  await new Promise((r) => setTimeout(r, 5)); // let onFinish store the reply
  const parts = body
    .split("\n\n")
    .filter((c) => c.startsWith("data: {"))
    .map((c) => JSON.parse(c.slice(6)) as { type: string; data?: Record<string, unknown> });
  const reset = parts.find(
    (p) => p.type === "data-context-reset" && p.data?.event === "reset_complete",
  );
  const contexts = parts.filter((p) => p.type === "data-context");
  return { reset: reset !== undefined, utilization: contexts.at(-1)?.data?.utilization as number };
}

async function chain(userId: string, agent: string, resets: number) {
  const threadId = randomUUID();
  await send(userId, threadId, "Let's keep notes on the release together.");
  await updateThread({ userId, threadId, profile: agent });
  const given: Given = { notes: [], decisions: [], pins: [], open: new Map(), lastRequest: "" };
  const starts: number[] = [];
  let turn = 0;
  for (let s = 0; s < resets; s++) {
    for (const line of scriptFor(s, given)) await send(userId, threadId, line);
    for (let i = 0; i < 100; i++) {
      const text = filler(turn++);
      const sent = await send(userId, threadId, text);
      if (sent.reset) {
        starts.push(sent.utilization);
        given.lastRequest = text;
        break;
      }
    }
  }
  const sessions = await listSessions({ userId, threadId });
  const last = sessions.at(-1);
  const profile = await findProfile({ userId, profileId: agent });
  if (!last || !profile) throw new Error("no session");
  const { brief } = await loadSessionContext({ userId, threadId, session: last, profile });
  const a = brief?.artifact;
  const kept = (items: string[], held: string[]) =>
    items.length === 0 ? 1 : items.filter((i) => held.includes(i)).length / items.length;
  const pct = (n: number) => `${Math.round(n * 100)}%`;
  return [
    agent,
    resets,
    pct(kept(given.notes, a?.confirmed_facts ?? [])),
    pct(kept(given.decisions, a?.key_decisions ?? [])),
    pct(kept(given.pins, a?.must_preserve ?? [])),
    pct(
      kept(
        [...given.open.keys()],
        (a?.remaining_tasks ?? []).map((t) => t.id),
      ),
    ),
    (a?.in_progress ?? []).some((t) => t.endsWith(given.lastRequest)) ? "yes" : "no",
    pct(starts[0] ?? 0),
    pct(starts.at(-1) ?? 0),
    pct(Math.max(...starts)),
  ];
}

const scratch = await openScratchDatabase("fidelity");
try {
  const { getDb } = await import("@/db/client");
  const userId = randomUUID();
  await getDb()
    .insert(users)
    .values({ id: userId, name: "bench", email: `${userId}@bench.test` });
  // A light agent (three tools, brief share 10%) beside the default one (all tools, 20%).
  await getDb()
    .insert(agentProfiles)
    .values({
      id: "notes",
      userId,
      name: "Notes",
      systemPrompt: "You are Notes, agent notes.",
      toolsAllow: ["list_files", "read_file", "write_file"],
      briefShare: 0.1,
    });
  const rows: (string | number)[][] = [];
  for (const agent of ["default", "notes"]) {
    for (const n of CHAINS) rows.push(await chain(userId, agent, n));
  }
  console.log(
    `\n### Handoff fidelity on ${scratch.kind} (${new Date().toISOString().slice(0, 10)})\n`,
  );
  console.log(
    table(
      [
        "agent",
        "resets",
        "notes kept",
        "decisions kept",
        "pins kept",
        "open tasks kept",
        "last request",
        "start util. first",
        "last",
        "max",
      ],
      rows,
    ),
  );
} finally {
  await scratch.dispose();
}
