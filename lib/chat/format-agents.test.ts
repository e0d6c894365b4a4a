// The message list of a thread with agents: an agent handoff's divider ("Writer → Editor", its
// reason and brief), each reply's writer and each session's agent, live and after a reload.
import { describe, expect, it } from "vitest";
import { emptyArtifact } from "@/lib/handoff/artifact";
import { DEFAULT_AGENT } from "./agent-refs";
import { formatMessages, type ListItem } from "./format-messages";
import type {
  AgentBrief,
  AgentRef,
  ChatMessage,
  HandoffView,
  MessageMetadata,
  SessionSummary,
} from "./types";

type Part = ChatMessage["parts"][number];

const WRITER: AgentRef = { id: "writer", name: "Writer" };
const EDITOR: AgentRef = { id: "editor", name: "Editor" };
const sid = (number: number) => `s${number}`;

function brief(from: AgentRef, to: AgentRef): AgentBrief {
  return {
    from,
    to,
    objective: "polish draft.md",
    title: "Polish the draft",
    reason: "The user asked for editor to take over.",
    workspaceRefs: ["draft.md"],
    mustPreserve: [],
    completionCriteria: ["polish draft.md is done."],
    additional: {},
  };
}

function agentHandoff(from: AgentRef, to: AgentRef, sessionNumber = 2): HandoffView {
  return {
    key: `agent-handoff-${sessionNumber}`,
    revision: 1,
    id: `brief-${sessionNumber}`,
    sessionNumber,
    artifact: emptyArtifact("polish draft.md"),
    markdown: "# Handoff Brief\n\n## Objective\npolish draft.md",
    createdAt: "2025-01-02T00:00:00.000Z",
    redactions: [],
    kind: "agent_handoff",
    brief: brief(from, to),
  };
}

function session(
  number: number,
  agent: AgentRef,
  overrides: Partial<SessionSummary> = {},
): SessionSummary {
  return {
    id: sid(number),
    number,
    model: "baton/local",
    profile: agent.id,
    trigger: number === 1 ? "initial" : "agent_handoff",
    startedAt: `2025-01-0${number}T00:00:00.000Z`,
    endedAt: null,
    firstSeq: null,
    messageCount: 0,
    handoff: number === 1 ? null : agentHandoff(WRITER, agent, number),
    agent,
    ...overrides,
  };
}

const text = (value: string): Part => ({ type: "text", text: value });

function sessionPart(number: number, agent: AgentRef): Part {
  return {
    type: "data-session",
    id: `session-${sid(number)}`,
    data: {
      id: sid(number),
      number,
      model: "baton/local",
      profile: agent.id,
      trigger: number === 1 ? "initial" : "agent_handoff",
      startedAt: `2025-01-0${number}T00:00:00.000Z`,
    },
  };
}

function handoffPart(from: AgentRef, to: AgentRef, fromSession = 1): Part {
  const number = fromSession + 1;
  return {
    type: "data-agent-handoff",
    id: `agent-handoff-${sid(fromSession)}`,
    data: {
      from,
      to,
      title: "Polish the draft",
      reason: "The user asked for editor to take over.",
      oldSessionId: sid(fromSession),
      newSessionId: sid(number),
      sessionNumber: number,
      handoff: agentHandoff(from, to, number),
    },
  };
}

const handoffCall: Part = {
  type: "tool-handoff_to_agent",
  toolCallId: "call-1",
  state: "output-available",
  input: { agentId: "editor", handoff: { objective: "polish draft.md" } },
  output: { ok: true, message: "Handoff accepted for Agent Editor. Your part is complete." },
} as Part;

const stored = (seq: number, number: number, agent?: AgentRef): MessageMetadata => ({
  seq,
  sessionId: sid(number),
  status: "complete",
  ...(agent ? { agent } : {}),
});

function message(
  id: string,
  role: "user" | "assistant",
  parts: Part[],
  metadata?: MessageMetadata,
): ChatMessage {
  return metadata ? { id, role, parts, metadata } : { id, role, parts };
}

/** What a reader sees of each row: kind, session, writer or handoff line, and text. */
function seen(items: ListItem[]) {
  return items.map((item) => {
    switch (item.kind) {
      case "message": {
        const shown = item.message.parts.flatMap((p) =>
          p.type === "text" ? [p.text] : "toolCallId" in p ? [p.type] : [],
        );
        return [item.sessionNumber, item.agent?.name ?? "-", shown.join(" | ")];
      }
      case "session_divider": {
        const h = item.agentHandoff;
        const line = h ? `${h.from.name} → ${h.to.name}` : "divider";
        return [item.sessionNumber, line, h?.reason ?? ""];
      }
      default:
        return [item.sessionNumber, item.kind, ""];
    }
  });
}

const history = [
  message("u0", "user", [text("write draft.md: hello")], stored(1, 1)),
  message("a0", "assistant", [sessionPart(1, WRITER), text("Wrote draft.md")], stored(2, 1)),
];
const REQUEST = "hand off to editor: polish draft.md";

/** The browser's copy while the run streams: one message for both agents' parts. */
const live = [
  ...history,
  // Sent from this page: the stream never reports its seq or session.
  message("u1", "user", [text(REQUEST)]),
  message(
    "a1",
    "assistant",
    [
      { type: "step-start" },
      sessionPart(1, WRITER),
      handoffCall,
      handoffPart(WRITER, EDITOR),
      sessionPart(2, EDITOR),
      { type: "step-start" },
      text("Polished draft.md"),
    ],
    // The stream may already stamp the reply with the new session and its agent.
    { seq: 5, sessionId: sid(2), status: "partial", agent: EDITOR },
  ),
];

/**
 * What the server stores: the source's half in session 1; the request, moved into the target's
 * session (its context holds what it answers), and the target's half in session 2.
 */
const reloaded = [
  ...history,
  message("u1", "user", [text(REQUEST)], stored(3, 2)),
  message(
    "a1",
    "assistant",
    [sessionPart(1, WRITER), handoffCall, handoffPart(WRITER, EDITOR)],
    stored(4, 1, WRITER),
  ),
  message("a1-2", "assistant", [sessionPart(2, EDITOR), text("Polished draft.md")], {
    ...stored(5, 2, EDITOR),
  }),
];

const expected = [
  [1, "-", "write draft.md: hello"],
  [1, "Writer", "Wrote draft.md"],
  [1, "Writer", "tool-handoff_to_agent"],
  [2, "Writer → Editor", "The user asked for editor to take over."],
  [2, "-", REQUEST],
  [2, "Editor", "Polished draft.md"],
];

describe("formatMessages: an agent handoff", () => {
  it("puts the divider where the handoff part arrives, before the sessions are re-read", () => {
    const { items, sessionAgents } = formatMessages(live, [session(1, WRITER)]);
    expect(seen(items)).toEqual(expected);
    expect(sessionAgents).toEqual({ 1: WRITER, 2: EDITOR });
    const divider = items.find((item) => item.kind === "session_divider");
    expect(divider?.kind === "session_divider" && divider.session.trigger).toBe("agent_handoff");
    expect(divider?.kind === "session_divider" && divider.session.handoff?.markdown).toContain(
      "# Handoff Brief",
    );
  });

  it("renders the live run the same once the sessions are re-read, and the reload the same", () => {
    const sessions = [session(1, WRITER), session(2, EDITOR)];
    const fromLive = formatMessages(live, sessions);
    const fromReload = formatMessages(reloaded, sessions);
    expect(seen(fromLive.items)).toEqual(expected);
    expect(seen(fromReload.items)).toEqual(expected);
    expect(fromReload.sessionStartIndex).toEqual(fromLive.sessionStartIndex);
    expect(fromReload.sessionAgents).toEqual({ 1: WRITER, 2: EDITOR });
  });

  it("names the target as the writer of a reply handed over before it showed anything", () => {
    const messages = [
      ...history,
      message("u1", "user", [text(REQUEST)]),
      message(
        "a1",
        "assistant",
        [sessionPart(1, WRITER), handoffPart(WRITER, EDITOR), sessionPart(2, EDITOR), text("Hi")],
        // Stamped when the run started, by the agent it started with.
        { seq: 4, sessionId: sid(1), status: "partial", agent: WRITER },
      ),
    ];
    expect(seen(formatMessages(messages, [session(1, WRITER)]).items).slice(-3)).toEqual([
      [2, "Writer → Editor", "The user asked for editor to take over."],
      [2, "-", REQUEST],
      [2, "Editor", "Hi"],
    ]);
  });

  it("labels the source's half by the source when its session began under another agent", () => {
    // The thread was switched to the writer after session 1 began under the built-in Default.
    const sessions = [session(1, DEFAULT_AGENT)];
    const { items } = formatMessages(live, sessions);
    expect(seen(items).slice(2)).toEqual([
      [1, "Writer", "tool-handoff_to_agent"],
      [2, "Writer → Editor", "The user asked for editor to take over."],
      [2, "-", REQUEST],
      [2, "Editor", "Polished draft.md"],
    ]);
  });

  it("follows a chain of handoffs in one run, live and after a reload", () => {
    const REVIEWER: AgentRef = { id: "reviewer", name: "Reviewer" };
    const live = [
      message("u1", "user", [text(REQUEST)]),
      message(
        "a1",
        "assistant",
        [
          sessionPart(1, WRITER),
          handoffCall,
          handoffPart(WRITER, EDITOR, 1),
          sessionPart(2, EDITOR),
          handoffCall,
          handoffPart(EDITOR, REVIEWER, 2),
          sessionPart(3, REVIEWER),
          text("Reviewed"),
        ],
        { seq: 4, sessionId: sid(3), status: "partial", agent: REVIEWER },
      ),
    ];
    const reloaded = [
      message("u1", "user", [text(REQUEST)], stored(1, 3)),
      message(
        "a1",
        "assistant",
        [handoffCall, handoffPart(WRITER, EDITOR, 1)],
        stored(2, 1, WRITER),
      ),
      message(
        "a2",
        "assistant",
        [handoffCall, handoffPart(EDITOR, REVIEWER, 2)],
        stored(3, 2, EDITOR),
      ),
      message("a3", "assistant", [text("Reviewed")], stored(4, 3, REVIEWER)),
    ];
    const sessions = [
      session(1, WRITER),
      session(2, EDITOR),
      session(3, REVIEWER, { handoff: agentHandoff(EDITOR, REVIEWER, 3) }),
    ];
    const chain = [
      [1, "Writer", "tool-handoff_to_agent"],
      [2, "Writer → Editor", "The user asked for editor to take over."],
      [2, "Editor", "tool-handoff_to_agent"],
      [3, "Editor → Reviewer", "The user asked for editor to take over."],
      [3, "-", REQUEST],
      [3, "Reviewer", "Reviewed"],
    ];
    expect(seen(formatMessages(live, [session(1, WRITER)]).items)).toEqual(chain);
    expect(seen(formatMessages(reloaded, sessions).items)).toEqual(chain);
  });

  it("leaves a stored user message in the session it is stored in", () => {
    const messages = [
      message("u0", "user", [text("stored above")], stored(1, 1)),
      message("a1", "assistant", [handoffCall, handoffPart(WRITER, EDITOR)], stored(2, 1, WRITER)),
    ];
    const sessions = [session(1, WRITER), session(2, EDITOR)];
    expect(seen(formatMessages(messages, sessions).items).slice(0, 2)).toEqual([
      [1, "-", "stored above"],
      [1, "Writer", "tool-handoff_to_agent"],
    ]);
  });

  it("moves the user messages the handoff part names, when it names them", () => {
    const part = handoffPart(WRITER, EDITOR);
    if (part.type !== "data-agent-handoff") throw new Error("not a handoff part");
    const named: Part = { ...part, data: { ...part.data, movedMessageIds: ["u0"] } };
    const messages = [
      message("u0", "user", [text("first")]),
      message("u1", "user", [text("second")]),
      message("a1", "assistant", [sessionPart(1, WRITER), handoffCall, named, text("Done")]),
    ];
    expect(seen(formatMessages(messages, [session(1, WRITER)]).items)).toEqual([
      [1, "-", "second"],
      [1, "Writer", "tool-handoff_to_agent"],
      [2, "Writer → Editor", "The user asked for editor to take over."],
      [2, "-", "first"],
      [2, "Editor", "Done"],
    ]);
  });

  it("names the agents by the sessions' current names rather than the brief's", () => {
    const renamed = { ...EDITOR, name: "Copy editor" };
    const sessions = [session(1, WRITER), session(2, renamed)];
    const { items } = formatMessages(reloaded, sessions);
    expect(seen(items)[3]).toEqual([2, "Writer → Copy editor", expect.any(String)]);
  });

  it("takes a reply's writer from the reply, else from its session", () => {
    const sessions = [session(1, WRITER)];
    const messages = [
      message("a0", "assistant", [text("by the session's agent")], stored(1, 1)),
      message("a1", "assistant", [text("by the editor")], stored(2, 1, EDITOR)),
    ];
    expect(seen(formatMessages(messages, sessions).items)).toEqual([
      [1, "Writer", "by the session's agent"],
      [1, "Editor", "by the editor"],
    ]);
  });

  it("names no agents in a thread that only ran the built-in Default", () => {
    const sessions = [
      session(1, DEFAULT_AGENT),
      session(2, DEFAULT_AGENT, { trigger: "threshold", handoff: null }),
    ];
    const messages = [
      message("a0", "assistant", [text("one")], stored(1, 1, DEFAULT_AGENT)),
      message("a1", "assistant", [text("two")], stored(2, 2)),
    ];
    const { items, sessionAgents } = formatMessages(messages, sessions);
    expect(seen(items)).toEqual([
      [1, "-", "one"],
      [2, "divider", ""],
      [2, "-", "two"],
    ]);
    expect(sessionAgents).toEqual({});
  });

  it("names the agent of a thread run by one custom agent", () => {
    const messages = [message("a0", "assistant", [text("hi")], stored(1, 1, WRITER))];
    const { items, sessionAgents } = formatMessages(messages, [session(1, WRITER)]);
    expect(seen(items)).toEqual([[1, "Writer", "hi"]]);
    expect(sessionAgents).toEqual({ 1: WRITER });
  });

  it("gives a session known only from the stream the agent its profile names", () => {
    // A new thread: nothing stored yet, the stream announces the session and its profile.
    const messages = [
      message("u0", "user", [text("hi")]),
      message("a0", "assistant", [sessionPart(1, WRITER), text("hello")]),
    ];
    const { items, sessionAgents } = formatMessages(messages, []);
    expect(seen(items)).toEqual([
      [1, "-", "hi"],
      [1, "writer", "hello"],
    ]);
    expect(sessionAgents).toEqual({ 1: { id: "writer", name: "writer" } });
  });

  it("keeps a reset after a handoff with the target agent", () => {
    const sessions = [
      session(1, WRITER),
      session(2, EDITOR),
      session(3, EDITOR, { trigger: "threshold", handoff: null }),
    ];
    const messages = [
      message("a0", "assistant", [text("draft")], stored(1, 1)),
      message("a1", "assistant", [text("polish")], stored(2, 2)),
      message("a2", "assistant", [text("more polish")], stored(3, 3)),
    ];
    expect(seen(formatMessages(messages, sessions).items)).toEqual([
      [1, "Writer", "draft"],
      [2, "Writer → Editor", "The user asked for editor to take over."],
      [2, "Editor", "polish"],
      [3, "divider", ""],
      [3, "Editor", "more polish"],
    ]);
  });

  it("reads a shared thread's agents, whose sessions name no profile", () => {
    const standIn = { id: "Zx81", name: "Editor" };
    const sessions = [
      session(1, DEFAULT_AGENT, { profile: "" }),
      session(2, standIn, {
        profile: "",
        handoff: agentHandoff(DEFAULT_AGENT, standIn),
      }),
    ];
    const messages = [
      message("a0", "assistant", [text("draft")], stored(1, 1, DEFAULT_AGENT)),
      message("a1", "assistant", [text("polish")], stored(2, 2, standIn)),
    ];
    const { items, sessionAgents } = formatMessages(messages, sessions);
    expect(seen(items)).toEqual([
      [1, "Default", "draft"],
      [2, "Default → Editor", "The user asked for editor to take over."],
      [2, "Editor", "polish"],
    ]);
    expect(sessionAgents).toEqual({ 1: DEFAULT_AGENT, 2: standIn });
  });
});
