import { describe, expect, it } from "vitest";
import { approvalAnswerBody } from "./approval-body";
import { allowForSessionSchema, approvalMessageSchema, approvalReplyOf } from "./approval-request";
import type { ChatMessage } from "./types";

const message = (parts: unknown[]): ChatMessage => ({
  id: "m1",
  role: "assistant",
  parts: parts as ChatMessage["parts"],
});

const answered = (id: string, approved: boolean, extra: Record<string, unknown> = {}) => ({
  type: "tool-delete_file",
  toolCallId: `call-${id}`,
  state: "approval-responded",
  input: { path: "work/p1.md" },
  approval: { id, approved },
  ...extra,
});

/** What the server reads from the body (the route's schemas, then the reply it acts on). */
function serverReads(body: unknown) {
  const { message: sent, allowForSession } = body as {
    message: unknown;
    allowForSession?: unknown;
  };
  return approvalReplyOf({
    message: approvalMessageSchema.parse(sent),
    allowForSession: allowForSessionSchema.parse(allowForSession),
  });
}

describe("approvalAnswerBody", () => {
  it("sends only the answered calls, which the server reads as the answers", () => {
    const body = approvalAnswerBody(
      message([
        { type: "step-start" },
        { type: "text", text: "I will delete it." },
        {
          type: "tool-write_file",
          toolCallId: "w1",
          state: "output-available",
          input: { path: "a.md", content: "secret content" },
          output: { ok: true },
        },
        answered("ap1", false),
      ]),
      new Set(),
    );
    expect(body).toEqual({
      message: {
        id: "m1",
        role: "assistant",
        parts: [
          {
            type: "tool-delete_file",
            toolCallId: "call-ap1",
            state: "approval-responded",
            approval: { id: "ap1", approved: false },
          },
        ],
      },
    });
    expect(serverReads(body)).toEqual({
      messageId: "m1",
      answers: [{ approvalId: "ap1", approved: false }],
      allowForSession: [],
    });
  });

  it("names an approved call answered “Allow for this session”, never a denied one", () => {
    const body = approvalAnswerBody(
      message([answered("ap1", true), answered("ap2", false)]),
      new Set(["ap1", "ap2"]),
    );
    expect(body?.allowForSession).toEqual(["ap1"]);
    expect(serverReads(body).allowForSession).toEqual(["ap1"]);
  });

  it("keeps a dynamic tool's name and the reason given", () => {
    const body = approvalAnswerBody(
      message([
        answered("ap1", false, {
          type: "dynamic-tool",
          toolName: "mcp_send",
          approval: { id: "ap1", approved: false, reason: "not now" },
        }),
      ]),
      new Set(),
    );
    expect(body?.message.parts).toEqual([
      {
        type: "dynamic-tool",
        toolName: "mcp_send",
        toolCallId: "call-ap1",
        state: "approval-responded",
        approval: { id: "ap1", approved: false, reason: "not now" },
      },
    ]);
    expect(serverReads(body).answers).toEqual([
      { approvalId: "ap1", approved: false, reason: "not now" },
    ]);
  });

  it("is null for a message that answers nothing", () => {
    expect(approvalAnswerBody(message([{ type: "text", text: "hi" }]), new Set())).toBeNull();
    const pending = {
      ...answered("ap1", true),
      state: "approval-requested",
      approval: { id: "ap1" },
    };
    expect(approvalAnswerBody(message([pending]), new Set())).toBeNull();
  });
});
