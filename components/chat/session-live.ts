// The chat view's live view of its sessions: the number of the session it is in now (stored
// sessions, then the sessions the live stream started), and the toasts a reset's events and an
// agent transfer show.
import { toast } from "sonner";
import type { QueuedEntry } from "@/lib/chat/live-messages";
import type {
  AgentHandoffPart,
  ChatMessage,
  ContextResetPart,
  SessionSummary,
} from "@/lib/chat/types";

export function currentSessionNumber(
  sessions: readonly SessionSummary[],
  messages: readonly ChatMessage[],
  queued: readonly QueuedEntry[],
): number {
  let number = sessions.at(-1)?.number ?? 1;
  const recent = [...messages.slice(-4), ...queued.flatMap((e) => (e.answer ? [e.answer] : []))];
  for (const message of recent) {
    for (const part of message.parts) {
      if (part.type === "data-session") number = Math.max(number, part.data.number);
      else if (part.type === "data-agent-handoff") {
        number = Math.max(number, part.data.sessionNumber);
      }
    }
  }
  return number;
}

/** Plain toasts, not the Toaster's rich success colours: those fall below 4.5:1 contrast. */
export function announceReset(data: ContextResetPart, sessions: readonly SessionSummary[]) {
  const from = sessions.find((s) => s.id === data.oldSessionId)?.number;
  const inSession = from ? ` — continuing in session ${from}` : "";
  if (data.event === "reset_complete" && data.sessionNumber) {
    toast(`Session ${data.sessionNumber} started — context was reset`);
  } else if (data.event === "reset_cancelled") {
    toast(`Context reset cancelled${inSession}`);
  } else if (data.event === "awaiting_review") {
    toast("The handoff is drafted — review it to start the new session");
  } else if (data.event === "reset_failed") {
    toast.error(`Context reset failed${inSession}. ${data.reason ?? ""}`.trim());
  }
}

export function announceAgentTransfer(data: AgentHandoffPart) {
  toast(`${data.from.name} transferred to ${data.to.name}`);
}
