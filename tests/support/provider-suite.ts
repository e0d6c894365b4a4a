// The same chat cases run against each provider's wire protocol: Baton's chat route, the real
// provider SDK, and a protocol server scripted per test (tests/support/protocol). What each case
// asserts is what a user sees (the stream, the stored messages) and what the provider was sent.
import { randomUUID } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { POST } from "@/app/api/chat/route";
import { getDb } from "@/db/client";
import { listThreadMessages } from "@/db/queries/messages";
import { handoffRevisions, type Message, sessions, threads } from "@/db/schema";
import { OFFLINE_TITLE_MARKER } from "@/lib/demo-model/model";
import { handoffArtifactSchema } from "@/lib/handoff/artifact";
import { guestHeaders } from "./auth";
import { parseSse, replyText, type SsePart } from "./chat";
import type { ProtocolServer, RecordedRequest } from "./protocol/server";
import { strictSchemaProblem } from "./protocol/strict-schema";

export interface ProviderUnderTest {
  name: string;
  /** The model id the chat request names (`provider:model`). */
  model: string;
  start(): Promise<ProtocolServer>;
  /** The provider variables pointing Baton at the server. */
  env(server: ProtocolServer): Record<string, string>;
  /** Whether a request asks for the handoff as structured output, and with which JSON Schema. */
  structuredSchemaOf(request: RecordedRequest): unknown;
  /** The tool results a request carries back to the model, by call id. */
  toolResultsOf(request: RecordedRequest): Map<string, string>;
  /** The protocol's own checks of the request that asked for the handoff. */
  checkHandoffRequest?(request: RecordedRequest): void;
  /** The cases to run (all by default), for a second configuration of the same protocol. */
  cases?: readonly CaseName[];
}

export type CaseName =
  | "turn"
  | "tools"
  | "reset"
  | "retry"
  | "persistent"
  | "cut"
  | "bad-tool-json";

/** The window every provider gets here: small enough that `auto` resets (below 32k). */
export const WINDOW = 16_000;

const HANDOFF = {
  goal: "Write the status report",
  state_summary: "The notes file exists; the report is not written yet.",
  completed_work: ["wrote notes.md"],
  in_progress: null,
  remaining_tasks: [{ id: "t1", task: "write report.md from the notes" }],
  key_decisions: ["the report is markdown"],
  confirmed_facts: null,
  unknowns: null,
  must_preserve: null,
  files_modified: null,
  last_completed_step: "wrote notes.md",
  next_step: "write report.md",
  needs_authorization: null,
};

/** A new thread's title is asked of the thread's model beside its first reply, in any order. */
export function answerTitlesAside(server: ProtocolServer) {
  server.answerAside((request) =>
    JSON.stringify(request.body).includes(OFFLINE_TITLE_MARKER) && request.body.stream !== true
      ? { text: "A scripted title" }
      : null,
  );
}

export function describeProviderOverWire(provider: ProviderUnderTest) {
  describe(`${provider.name} over its wire protocol`, () => {
    let server: ProtocolServer;
    let headers: Headers;
    const saved: Record<string, string | undefined> = {};

    beforeAll(async () => {
      server = await provider.start();
      const env = { ...provider.env(server), BATON_CONTEXT_WINDOW: String(WINDOW) };
      for (const [key, value] of Object.entries(env)) {
        saved[key] = process.env[key];
        process.env[key] = value;
      }
      headers = await guestHeaders();
      answerTitlesAside(server);
    });

    afterAll(async () => {
      for (const [key, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
      await server?.close();
    });

    afterEach(() => {
      const { refusals } = server;
      const pending = server.pending();
      server.reset();
      // Every request Baton sent was one the real API accepts, and the script was used up.
      expect(refusals).toEqual([]);
      expect(pending).toBe(0);
    });

    const runs = (name: CaseName) => provider.cases === undefined || provider.cases.includes(name);
    const test = (name: CaseName, title: string, body: () => Promise<void>) =>
      it.runIf(runs(name))(title, body);

    async function send(text: string, threadId = randomUUID()) {
      const h = new Headers(headers);
      h.set("content-type", "application/json");
      const response = await POST(
        new Request("http://localhost:3000/api/chat", {
          method: "POST",
          headers: h,
          body: JSON.stringify({
            id: threadId,
            trigger: "submit-message",
            model: provider.model,
            message: { id: randomUUID(), role: "user", parts: [{ type: "text", text }] },
          }),
        }),
      );
      expect(response.status).toBe(200);
      const parts = parseSse(await response.text());
      return { threadId, parts, stored: await storedMessages(threadId) };
    }

    async function storedMessages(threadId: string): Promise<Message[]> {
      const [thread] = await getDb().select().from(threads).where(eq(threads.id, threadId));
      if (!thread) throw new Error("the thread was not stored");
      let rows: Message[] = [];
      await expect
        .poll(
          async () => {
            rows = (await listThreadMessages({ userId: thread.userId, threadId, limit: 100 }))
              .messages;
            return rows.some((m) => m.status === "partial");
          },
          { timeout: 20_000, interval: 25 },
        )
        .toBe(false);
      return rows;
    }

    const textOf = (message: Message | undefined) =>
      ((message?.parts ?? []) as { type: string; text?: string }[])
        .map((p) => (p.type === "text" ? (p.text ?? "") : ""))
        .join("");
    const toolParts = (rows: Message[]) =>
      rows.flatMap((m) =>
        (m.parts as { type: string }[]).filter((p) => p.type.startsWith("tool-")),
      ) as unknown as {
        type: string;
        state: string;
        toolCallId: string;
        errorText?: string;
      }[];
    const contexts = (parts: SsePart[]) =>
      parts
        .filter((p) => p.type === "data-context")
        .map((p) => p.data as { inputTokens: number; utilization: number; contextWindow: number });
    const errors = (parts: SsePart[]) =>
      parts.filter((p) => p.type === "error") as unknown as { errorText: string }[];

    test(
      "turn",
      "answers a chat turn, streamed, and measures the context from the reported usage",
      async () => {
        server.script({ text: "Hello from the wire.", usage: { input: 2345, output: 6 } });
        const { threadId, parts, stored } = await send("hello about the weather report");
        expect(replyText(parts)).toBe("Hello from the wire.");
        expect(stored.map((m) => `${m.role}:${m.status}`)).toEqual([
          "user:complete",
          "assistant:complete",
        ]);
        expect(textOf(stored[1])).toBe("Hello from the wire.");
        expect(server.requests).toHaveLength(1);
        expect(JSON.stringify(server.requests[0]?.body)).toContain(
          "hello about the weather report",
        );
        // The reading after the step starts from what the provider reported (far above the local
        // estimate of this short prompt), plus the reply's own few tokens.
        const after = contexts(parts).at(-1);
        expect(after?.contextWindow).toBe(WINDOW);
        expect(after?.inputTokens).toBeGreaterThanOrEqual(2345);
        expect(after?.inputTokens).toBeLessThan(2345 + 40);
        expect(after?.utilization).toBeCloseTo((after?.inputTokens ?? 0) / WINDOW, 5);
        // The thread's title was asked of the same provider, beside the reply.
        await expect
          .poll(async () => {
            const [row] = await getDb().select().from(threads).where(eq(threads.id, threadId));
            return row?.title;
          })
          .toBe("A scripted title");
      },
    );

    test("tools", "runs three steps with tools, each result sent back to the model", async () => {
      server.script(
        {
          text: "Writing the notes first.",
          toolCalls: [{ name: "write_file", args: '{"path":"notes.md","content":"alpha"}' }],
        },
        { toolCalls: [{ name: "read_file", args: '{"path":"notes.md"}' }] },
        { text: "The notes say alpha." },
      );
      const { parts, stored } = await send("write notes.md, then read it back");
      expect(replyText(parts)).toBe("Writing the notes first.The notes say alpha.");
      expect(server.requests).toHaveLength(3);
      const [, second, third] = server.requests;
      if (!second || !third) throw new Error("three requests expected");
      expect([...provider.toolResultsOf(second).values()].join()).toContain("notes.md");
      expect([...provider.toolResultsOf(third).values()].join()).toContain("alpha");
      const tools = toolParts(stored);
      expect(tools.map((t) => `${t.type}:${t.state}`)).toEqual([
        "tool-write_file:output-available",
        "tool-read_file:output-available",
      ]);
      expect(stored.at(-1)?.status).toBe("complete");
    });

    test(
      "reset",
      "resets mid-run with a handoff the model wrote through structured output",
      async () => {
        const threadId = randomUUID();
        server.script(
          // The first step reports a context past the reset threshold (0.8 of the window).
          {
            toolCalls: [{ name: "write_file", args: '{"path":"notes.md","content":"alpha"}' }],
            usage: { input: Math.round(WINDOW * 0.9), output: 20 },
          },
          (request) =>
            provider.structuredSchemaOf(request)
              ? { object: HANDOFF, usage: { input: 900, output: 150 } }
              : { status: 400, message: "the test expected the handoff request here" },
          { text: "Report written after the reset.", usage: { input: 3000, output: 10 } },
        );
        const { parts, stored } = await send("write the status report", threadId);
        expect(replyText(parts)).toContain("Report written after the reset.");
        const handoffRequest = server.requests[1];
        if (!handoffRequest) throw new Error("no handoff request");
        const schema = provider.structuredSchemaOf(handoffRequest);
        expect(strictSchemaProblem(schema)).toBeNull();
        provider.checkHandoffRequest?.(handoffRequest);

        const rows = await getDb()
          .select()
          .from(sessions)
          .where(eq(sessions.threadId, threadId))
          .orderBy(asc(sessions.number));
        expect(rows.map((s) => s.number)).toEqual([1, 2]);
        expect(rows[1]?.resetStats?.source).toBe("model");
        expect(rows[1]?.resetStats?.writerTokens).toBe(1050);
        const revisionId = rows[1]?.handoffRevisionId;
        if (!revisionId) throw new Error("session 2 did not start from a handoff");
        const [revision] = await getDb()
          .select()
          .from(handoffRevisions)
          .where(eq(handoffRevisions.id, revisionId));
        const artifact = handoffArtifactSchema.parse(revision?.artifact);
        expect(artifact.goal).toBe(HANDOFF.goal);
        expect(artifact.remaining_tasks).toEqual(HANDOFF.remaining_tasks);
        expect(artifact.key_decisions).toEqual(HANDOFF.key_decisions);
        expect(artifact.files_modified).toContain("notes.md");
        // The brief reached the model in session 2.
        expect(JSON.stringify(server.requests[2]?.body)).toContain(HANDOFF.goal);
        expect(stored.at(-1)?.status).toBe("complete");
      },
    );

    test("retry", "retries a 429 with a short Retry-After and answers", async () => {
      server.script(
        {
          status: 429,
          message: "Rate limit reached for requests.",
          headers: { "retry-after-ms": "20", "retry-after": "0" },
        },
        { text: "Answered after the wait." },
      );
      const { parts, stored } = await send("hello again");
      expect(replyText(parts)).toBe("Answered after the wait.");
      expect(errors(parts)).toEqual([]);
      expect(server.requests).toHaveLength(2);
      expect(stored.at(-1)?.status).toBe("complete");
    });

    for (const status of [429, 500]) {
      test(
        "persistent",
        `ends a persistent ${status} as a visible error and keeps the user's message`,
        async () => {
          const failure = {
            status,
            message: status === 429 ? "Rate limit reached for requests." : "Internal error.",
            headers: { "retry-after-ms": "10", "retry-after": "0" },
          };
          // The SDK's own retries (two) and no more.
          server.script(failure, failure, failure);
          const { parts, stored } = await send("this will fail");
          expect(server.requests).toHaveLength(3);
          expect(errors(parts).map((e) => e.errorText)).toEqual([
            "The model failed to answer. Try again.",
          ]);
          expect(stored.map((m) => `${m.role}:${m.status}`)).toEqual([
            "user:complete",
            "assistant:error",
          ]);
          expect(textOf(stored[0])).toBe("this will fail");
        },
      );
    }

    test("cut", "keeps the streamed text when the stream is cut mid-way", async () => {
      server.script({ cutAfter: "The first half of an answer" });
      const { parts, stored } = await send("tell me something long");
      expect(replyText(parts)).toBe("The first half of an answer");
      expect(errors(parts)).toHaveLength(1);
      expect(stored.at(-1)?.status).toBe("error");
      expect(textOf(stored.at(-1))).toBe("The first half of an answer");
    });

    test(
      "bad-tool-json",
      "answers malformed tool-call JSON with a tool error the run survives",
      async () => {
        server.script(
          { toolCalls: [{ name: "write_file", args: '{"path":"notes.md","content":' }] },
          { text: "That call was broken; here is the answer instead." },
        );
        const { parts, stored } = await send("write a note");
        expect(replyText(parts)).toBe("That call was broken; here is the answer instead.");
        const [call] = toolParts(stored);
        expect(call?.state).toBe("output-error");
        // The error went back to the model as that call's result.
        const second = server.requests[1];
        if (!second || !call) throw new Error("a second request and a tool part expected");
        expect(provider.toolResultsOf(second).get(call.toolCallId)).toBeDefined();
        expect(stored.at(-1)?.status).toBe("complete");
      },
    );
  });
}
