// The body of POST /api/chat: the AI SDK transport's fields, trimmed by the client to the one
// new user message (the server trusts only that and its own stored history).
import { z } from "zod";
import { PROFILE_SLUG_PATTERN } from "@/lib/agents/profile-view";
import { allowForSessionSchema, approvalMessageSchema } from "./approval-request";

/** Longest user message accepted, in characters (documented in the README). */
export const MAX_MESSAGE_CHARS = 32_000;
/** Largest request body accepted, in bytes. */
export const MAX_BODY_BYTES = 256_000;

const textPartSchema = z.object({
  type: z.literal("text"),
  text: z
    .string()
    .min(1, "A message needs some text.")
    .max(MAX_MESSAGE_CHARS, `A message is at most ${MAX_MESSAGE_CHARS} characters.`),
});

const userMessageSchema = z.object({
  id: z.string().min(1).max(128),
  role: z.literal("user"),
  parts: z.array(textPartSchema).min(1).max(1),
});

const messageIdSchema = z.string().min(1).max(128);

export const chatRequestSchema = z.discriminatedUnion("trigger", [
  z.object({
    trigger: z.literal("submit-message"),
    id: z.uuid(),
    // A new user message, or the assistant message sent back with tool approval answers.
    message: z.discriminatedUnion("role", [userMessageSchema, approvalMessageSchema]),
    allowForSession: allowForSessionSchema,
    model: z.string().min(1).max(200).optional(),
    /** The agent a new thread starts with (default: the built-in one); ignored once it exists. */
    profile: z.string().regex(PROFILE_SLUG_PATTERN, "Not an agent's name.").optional(),
  }),
  z.object({
    // Continue an interrupted reply (cut off by a server crash) where it stopped.
    trigger: z.literal("continue-message"),
    id: z.uuid(),
    messageId: messageIdSchema,
    model: z.string().min(1).max(200).optional(),
  }),
  z.object({
    trigger: z.literal("regenerate-message"),
    id: z.uuid(),
    messageId: messageIdSchema.optional(),
    model: z.string().min(1).max(200).optional(),
  }),
]);

export type ChatRequest = z.output<typeof chatRequestSchema>;
export type UserMessageInput = z.output<typeof userMessageSchema>;

export function messageText(parts: readonly unknown[]): string {
  return parts
    .map((p) =>
      p && typeof p === "object" && (p as { type?: unknown }).type === "text"
        ? String((p as { text?: unknown }).text ?? "")
        : "",
    )
    .join("");
}

/** A thread's title: the first line of its first message, shortened on a word boundary. */
export function titleFromMessage(text: string, max = 60): string {
  const line = text.trim().split("\n")[0]?.trim() ?? "";
  if (line.length === 0) return "New chat";
  if (line.length <= max) return line;
  const cut = line.slice(0, max);
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
