// What a reset left out of the brief it wrote (the revision's `dropped`), listed on the handoff
// card so nothing is lost silently: the text is still in the earlier session's messages.
import type { HandoffView } from "@/lib/chat/types";
import { HANDOFF_SECTIONS } from "@/lib/handoff/markdown";

const ITEM_MAX_CHARS = 240;

function fieldLabel(field: string): string {
  if (field === "goal") return "Goal";
  return HANDOFF_SECTIONS.find((s) => s.field === field)?.heading ?? field;
}

function short(text: string): string {
  const one = text.replace(/\s+/g, " ").trim();
  return one.length <= ITEM_MAX_CHARS ? one : `${one.slice(0, ITEM_MAX_CHARS - 1)}…`;
}

/** "Not carried: 3 items" for the collapsed card; null when everything was carried. */
export function notCarriedLine(handoff: HandoffView): string | null {
  const n = handoff.dropped?.length ?? 0;
  if (n === 0) return null;
  return `Not carried: ${n === 1 ? "1 item" : `${n} items`}`;
}

export function NotCarried({ handoff }: { handoff: HandoffView }) {
  return <NotCarriedList dropped={handoff.dropped ?? []} />;
}

/** The same list for a handoff not stored yet (a draft waiting for review). */
export function NotCarriedList({
  dropped,
}: {
  dropped: readonly { field: string; item: string }[];
}) {
  if (dropped.length === 0) return null;
  return (
    <section
      aria-label="Not carried"
      className="rounded-lg border-l-4 border-zinc-400 bg-white p-2 dark:bg-zinc-950"
    >
      <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-zinc-600 dark:text-zinc-400">
        Not carried
      </h3>
      <p className="mb-1 text-xs text-zinc-600 dark:text-zinc-400">
        Left out to keep the brief within its share of the window; still in the earlier session.
      </p>
      <ul className="space-y-1 text-sm">
        {dropped.map((d, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: items are plain strings that may repeat.
          <li key={i} className="break-words">
            <span className="text-xs text-zinc-600 dark:text-zinc-400">{fieldLabel(d.field)}:</span>{" "}
            {short(d.item)}
          </li>
        ))}
      </ul>
    </section>
  );
}
