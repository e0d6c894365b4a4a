// Drives real chat turns (the same runner the route uses) and reads their SSE streams.
import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { expect } from "vitest";
import { getDb } from "@/db/client";
import { listThreadMessages } from "@/db/queries/messages";
import { runs } from "@/db/schema";
import type { Actor } from "@/lib/auth/server";
import { runChatTurn, type TurnDependencies } from "@/lib/runs/turn";
import { createTestUser } from "./users";

export async function createActor(): Promise<Actor> {
  const id = await createTestUser();
  return { id, isAnonymous: true, email: null, name: "tester" };
}

export interface SsePart {
  type: string;
  id?: string;
  data?: Record<string, unknown>;
  delta?: string;
}

export function parseSse(body: string): SsePart[] {
  return body
    .split("\n\n")
    .map((chunk) => chunk.trim())
    .filter((chunk) => chunk.startsWith("data: ") && chunk !== "data: [DONE]")
    .map((chunk) => JSON.parse(chunk.slice("data: ".length)) as SsePart);
}

export function replyText(parts: SsePart[]): string {
  return parts
    .filter((p) => p.type === "text-delta")
    .map((p) => p.delta ?? "")
    .join("");
}

export async function startTurn(
  actor: Actor,
  threadId: string,
  text: string,
  deps: TurnDependencies = {},
  messageId: string = randomUUID(),
): Promise<{ messageId: string; response: Response }> {
  const response = await runChatTurn({
    actor,
    request: {
      trigger: "submit-message",
      id: threadId,
      message: { id: messageId, role: "user", parts: [{ type: "text", text }] },
    },
    signal: new AbortController().signal,
    deps,
  });
  return { messageId, response };
}

/** Sends a message, reads the whole stream, and waits until the reply is stored. */
export async function sendTurn(
  actor: Actor,
  threadId: string,
  text: string,
  deps: TurnDependencies = {},
): Promise<{ messageId: string; parts: SsePart[] }> {
  const { messageId, response } = await startTurn(actor, threadId, text, deps);
  expect(response.status).toBe(200);
  const parts = parseSse(await response.text());
  await waitForStoredReplies(actor, threadId);
  return { messageId, parts };
}

export async function waitForStoredReplies(actor: Pick<Actor, "id">, threadId: string) {
  await expect
    .poll(
      async () => {
        // A run still running may not have stored its reply's row yet (that waits for its first
        // words), so "no partial reply" alone could come before the reply exists.
        const running = await getDb()
          .select({ id: runs.id })
          .from(runs)
          .where(and(eq(runs.threadId, threadId), eq(runs.status, "running")))
          .limit(1);
        if (running.length > 0) return true;
        const { messages } = await listThreadMessages({ userId: actor.id, threadId, limit: 500 });
        return messages.some((m) => m.role === "assistant" && m.status === "partial");
      },
      { timeout: 20_000, interval: 25 },
    )
    .toBe(false);
}
