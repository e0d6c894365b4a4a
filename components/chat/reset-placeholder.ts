// A manual reset runs outside the stream: its placeholder divider goes after what was sent
// before it, above the messages queued behind it, until the stored session replaces it.
import type { ListItem } from "@/lib/chat/format-messages";
import type { QueuedEntry } from "@/lib/chat/live-messages";

export function withManualResetPlaceholder<
  T extends { items: ListItem[]; sessionStartIndex: Record<number, number> },
>(result: T, manualReset: { fromSession: number } | null, queued: readonly QueuedEntry[]): T {
  const upcoming = (manualReset?.fromSession ?? 0) + 1;
  if (!manualReset || result.sessionStartIndex[upcoming] !== undefined) return result;
  const queuedIds = new Set(queued.map((e) => e.user.id));
  const at = result.items.findIndex(
    (item) => item.kind === "message" && queuedIds.has(item.message.id),
  );
  const placeholder: ListItem = {
    kind: "session_divider",
    key: `session:${upcoming}`,
    sessionNumber: upcoming,
    session: {
      id: "",
      number: upcoming,
      model: "",
      profile: "",
      trigger: "manual",
      startedAt: "",
      endedAt: null,
      firstSeq: null,
      messageCount: 0,
      handoff: null,
    },
    live: { event: "input_blocked" },
  };
  const items = [...result.items];
  items.splice(at < 0 ? items.length : at, 0, placeholder);
  return { ...result, items };
}
