// The thread's pins as resets and the pins API use them (docs/handoffs.md#pins): a handoff's
// must_preserve is exactly what the thread pins now, and people pin and unpin through the API.
import "server-only";
import { pinKeyOf } from "@/core/pins";
import { getDb } from "@/db/client";
import { listThreadPins, pinText, unpinById } from "@/db/queries/pins";
import type { PinSource, PinState, ThreadPin } from "@/db/schema";
import type { HandoffArtifact } from "@/lib/handoff/artifact";
import { carriedPins } from "@/lib/handoff/pins";

interface ThreadRef {
  userId: string;
  threadId: string;
}

/**
 * The artifact with must_preserve set from the thread's pins: every current pin, then what the
 * writer listed that is neither a pin nor unpinned by the user. Those additions become pins when
 * the reset commits (db/queries/reset-commit.ts), not before.
 */
export async function withThreadPins(
  artifact: HandoffArtifact,
  thread: ThreadRef,
): Promise<HandoffArtifact> {
  const pins = (await listThreadPins(getDb(), thread)) ?? [];
  return { ...artifact, must_preserve: carriedPins(artifact.must_preserve, pins) };
}

/**
 * A reviewed draft against the pins changed while it waited (since `draftedAt`): an item the
 * draft listed that was unpinned since is left out (one the user typed in while reviewing stays),
 * and what was pinned since is added, so the commit carries the thread's pins as they are now.
 */
export async function withPinsSinceDraft(
  reviewed: HandoffArtifact,
  drafted: HandoffArtifact,
  draftedAt: Date,
  thread: ThreadRef,
): Promise<HandoffArtifact> {
  const changed = ((await listThreadPins(getDb(), thread)) ?? []).filter(
    (p) => p.updatedAt.getTime() > draftedAt.getTime(),
  );
  if (changed.length === 0) return reviewed;
  const inDraft = new Set(drafted.must_preserve.map(pinKeyOf));
  const unpinned = new Set(changed.filter((p) => p.state === "unpinned").map((p) => p.normalized));
  const kept = reviewed.must_preserve.filter((item) => {
    const key = pinKeyOf(item);
    return !(unpinned.has(key) && inDraft.has(key));
  });
  const have = new Set(kept.map(pinKeyOf));
  const pinnedSince = changed
    .filter((p) => p.state === "pinned" && !have.has(p.normalized))
    .map((p) => p.text);
  return { ...reviewed, must_preserve: [...kept, ...pinnedSince] };
}

export interface PinView {
  id: string;
  text: string;
  source: PinSource;
  state: PinState;
  createdAt: string;
}

function pinViewOf(pin: ThreadPin): PinView {
  return {
    id: pin.id,
    text: pin.text,
    source: pin.source,
    state: pin.state,
    createdAt: pin.createdAt.toISOString(),
  };
}

/** The thread's current pins, oldest first; null when it is not the user's thread. */
export async function listPinViews(thread: ThreadRef): Promise<PinView[] | null> {
  const rows = await listThreadPins(getDb(), thread);
  return rows ? rows.filter((r) => r.state === "pinned").map(pinViewOf) : null;
}

/**
 * Pins `text` for the user (stored masked). `created` is false when it was pinned already; null
 * when it is not the user's thread.
 */
export async function addThreadPin({
  text,
  source,
  ...thread
}: ThreadRef & { text: string; source: PinSource }): Promise<{
  pin: PinView;
  created: boolean;
} | null> {
  const rows = await listThreadPins(getDb(), thread);
  if (!rows) return null;
  const key = pinKeyOf(text);
  const existing = rows.find((r) => r.normalized === key && r.state === "pinned");
  if (existing) return { pin: pinViewOf(existing), created: false };
  const pin = await pinText(getDb(), { ...thread, text, source });
  return pin ? { pin: pinViewOf(pin), created: true } : null;
}

/** Unpins one pin (kept as a tombstone); "no_thread" or "no_pin" when there is none to unpin. */
export async function removeThreadPin({
  pinId,
  ...thread
}: ThreadRef & { pinId: string }): Promise<PinView | "no_thread" | "no_pin"> {
  const rows = await listThreadPins(getDb(), thread);
  if (!rows) return "no_thread";
  if (!rows.some((r) => r.id === pinId)) return "no_pin";
  const pin = await unpinById(getDb(), { ...thread, pinId });
  return pin ? pinViewOf(pin) : "no_pin";
}
