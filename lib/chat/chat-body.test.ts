import { Chat } from "@ai-sdk/react";
import { createUIMessageStreamResponse, DefaultChatTransport, type UIMessageChunk } from "ai";
import { describe, expect, it } from "vitest";
import { chatRequestBody, type TransportRequest } from "./chat-body";
import { chatRequestSchema } from "./request";
import type { ChatMessage } from "./types";

const THREAD = "6f1c2b9e-3d4a-4c5b-8e7f-9a0b1c2d3e4f";
const options = { model: "baton/local", allowForSession: new Set<string>() };

const user: ChatMessage = {
  id: "u1",
  role: "user",
  parts: [{ type: "text", text: "Write the report." }],
  metadata: { seq: 1, status: "complete" },
};
const interrupted: ChatMessage = {
  id: "a1",
  role: "assistant",
  parts: [{ type: "text", text: "The report has three parts. First" }],
  metadata: { seq: 2, status: "interrupted" },
};

function request(patch: Partial<TransportRequest>): TransportRequest {
  return {
    id: THREAD,
    messages: [user, interrupted],
    trigger: "submit-message",
    messageId: undefined,
    ...patch,
  };
}

describe("chatRequestBody", () => {
  it("asks to continue the named reply, in the shape the server accepts", () => {
    const { kind, body } = chatRequestBody(
      request({ messageId: "a1", body: { continueMessageId: "a1" } }),
      options,
    );
    expect(kind).toBe("continue");
    expect(chatRequestSchema.parse(body)).toEqual({
      id: THREAD,
      trigger: "continue-message",
      messageId: "a1",
      model: "baton/local",
    });
    // Nothing of the reply itself goes back: the server appends to its stored copy.
    expect(JSON.stringify(body)).not.toContain("three parts");
  });

  it("names a new chat's agent with its first message, and only with a message", () => {
    const first: ChatMessage = { id: "u1", role: "user", parts: [{ type: "text", text: "Hi" }] };
    const withAgent = { ...options, profile: "writer" };
    const sent = chatRequestBody(request({ messages: [first] }), withAgent);
    expect(chatRequestSchema.parse(sent.body)).toMatchObject({
      trigger: "submit-message",
      profile: "writer",
      message: { id: "u1" },
    });
    const without = chatRequestBody(request({ messages: [first] }), options);
    expect(without.body).not.toHaveProperty("profile");
    const regenerate = chatRequestBody(
      request({ trigger: "regenerate-message", messageId: "a1" }),
      withAgent,
    );
    expect(regenerate.body).not.toHaveProperty("profile");
  });

  it("sends a new user message alone, without the history", () => {
    const next: ChatMessage = { id: "u2", role: "user", parts: [{ type: "text", text: "Go" }] };
    const { kind, body } = chatRequestBody(
      request({ messages: [user, interrupted, next] }),
      options,
    );
    expect(kind).toBe("message");
    const parsed = chatRequestSchema.parse(body);
    expect(parsed).toMatchObject({ trigger: "submit-message", message: { id: "u2" } });
    expect(JSON.stringify(body)).not.toContain("Write the report");
  });

  it("regenerates without naming a message, as the existing Regenerate does", () => {
    const { kind, body } = chatRequestBody(
      request({ messages: [user], trigger: "regenerate-message" }),
      options,
    );
    expect(kind).toBe("regenerate");
    expect(chatRequestSchema.parse(body)).toEqual({
      id: THREAD,
      trigger: "regenerate-message",
      model: "baton/local",
    });
  });

  it("sends an approval answer as the answered calls, not as a continue", () => {
    const waiting: ChatMessage = {
      id: "a1",
      role: "assistant",
      parts: [
        {
          type: "tool-delete_file",
          toolCallId: "call-1",
          state: "approval-responded",
          input: { path: "notes.md" },
          approval: { id: "ap-1", approved: true },
        },
      ] as ChatMessage["parts"],
    };
    const { kind, body } = chatRequestBody(request({ messages: [user, waiting] }), options);
    expect(kind).toBe("approval");
    expect(chatRequestSchema.parse(body)).toMatchObject({
      trigger: "submit-message",
      message: { id: "a1", role: "assistant" },
    });
  });
});

describe("continuing through the AI SDK chat", () => {
  it("sends the continue body and appends the streamed parts to the interrupted reply", async () => {
    const sent: unknown[] = [];
    const chunks: UIMessageChunk[] = [
      { type: "start", messageId: "a1" },
      { type: "text-start", id: "t2" },
      { type: "text-delta", id: "t2", delta: " the summary." },
      { type: "text-end", id: "t2" },
      { type: "finish" },
    ];
    const transport = new DefaultChatTransport<ChatMessage>({
      api: "/api/chat",
      // Stands in for the network only: the server's side of continue is tested with the server.
      fetch: async (_url, init) => {
        sent.push(JSON.parse(String(init?.body)));
        return createUIMessageStreamResponse({
          stream: new ReadableStream({
            start(controller) {
              for (const chunk of chunks) controller.enqueue(chunk);
              controller.close();
            },
          }),
        });
      },
      prepareSendMessagesRequest: (req) => ({ body: chatRequestBody(req, options).body }),
    });
    const chat = new Chat<ChatMessage>({ id: THREAD, messages: [user, interrupted], transport });
    await chat.sendMessage(undefined, { body: { continueMessageId: "a1" } });

    expect(sent).toEqual([
      { id: THREAD, trigger: "continue-message", messageId: "a1", model: "baton/local" },
    ]);
    expect(chat.messages.map((m) => m.id)).toEqual(["u1", "a1"]);
    const text = chat.messages[1]?.parts.map((p) => (p.type === "text" ? p.text : "")).join("");
    expect(text).toBe("The report has three parts. First the summary.");
  });
});
