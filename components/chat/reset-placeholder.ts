// A reset the list has no live part for — a manual reset (it runs outside the stream), or one a
// reloaded page learned of from the thread API — gets a placeholder divider after what was sent
// before it, above the messages queued behind it, until the stored session replaces it. A reset
// whose handoff waits for review gets its editor there instead.
import type { ListItem } from "@/lib/chat/format-messages";
import type { SessionTrigger } from "@/lib/chat/types";

export interface PendingReset {
  fromSession: number;
  trigger?: SessionTrigger;
  /** The handoff is drafted and waits for the user: the row is the draft editor. */
  awaitingReview?: boolean;
}

export function withResetPlaceholder<
  T extends { items: ListItem[]; sessionStartIndex: Record<number, number> },
>(result: T, reset: PendingReset | null, queuedIds: ReadonlySet<string>): T {
  const upcoming = (reset?.fromSession ?? 0) + 1;
  if (!reset || result.sessionStartIndex[upcoming] !== undefined) return result;
  // A stream's own placeholder for this reset may still stand (its part said the reset ran):
  // a draft waiting for review takes its place, anything else leaves it as it is.
  const streamed = result.items.findIndex(
    (item) => item.kind === "session_divider" && item.live && item.sessionNumber === upcoming,
  );
  if (streamed >= 0 && !reset.awaitingReview) return result;
  const listed = streamed < 0 ? result.items : result.items.filter((_, i) => i !== streamed);
  const at = listed.findIndex((item) => item.kind === "message" && queuedIds.has(item.message.id));
  const placeholder: ListItem = {
    kind: "session_divider",
    key: `session:${upcoming}`,
    sessionNumber: upcoming,
    session: {
      id: "",
      number: upcoming,
      model: "",
      profile: "",
      trigger: reset.trigger ?? "manual",
      startedAt: "",
      endedAt: null,
      firstSeq: null,
      messageCount: 0,
      handoff: null,
    },
    live: { event: reset.awaitingReview ? "awaiting_review" : "input_blocked" },
  };
  const items = [...listed];
  items.splice(at < 0 ? items.length : at, 0, placeholder);
  return { ...result, items };
}
