"use client";
// The thread's current pins for the handoff cards: which items are pinned now, and pin and unpin
// calls that show at once and roll back with an error toast if the server refuses. With no
// provider (the read-only shared view) cards show no pin buttons.
import { createContext, type ReactNode, useCallback, useContext, useMemo, useRef } from "react";
import { toast } from "sonner";
import { normalizePin } from "@/core/pin-text";
import type { ThreadPinView } from "@/lib/chat/types";
import { pinThreadText, readableError, unpinThreadPin } from "./pin-api";

export interface ThreadPins {
  /** The current pin whose text matches `text` (case and spacing ignored), if any. */
  pinOf(text: string): ThreadPinView | undefined;
  pin(text: string): Promise<void>;
  unpin(pin: ThreadPinView): Promise<void>;
}

const PinsContext = createContext<ThreadPins | null>(null);

/**
 * A drafted handoff's must_preserve is what its commit pins: inside it, items read as pinned and
 * the cards' pin buttons (which act on the thread now) are left out.
 */
export function DraftPins({ children }: { children: ReactNode }) {
  return <PinsContext.Provider value={null}>{children}</PinsContext.Provider>;
}

/** Optimistic entries have an id of this form until the server answers with the real one. */
const PENDING = "pending:";

export function ThreadPinsProvider({
  threadId,
  pins,
  onPinsChange,
  children,
}: {
  threadId: string;
  pins: readonly ThreadPinView[];
  onPinsChange: (update: (pins: ThreadPinView[]) => ThreadPinView[]) => void;
  children: ReactNode;
}) {
  const byKey = useMemo(() => new Map(pins.map((p) => [normalizePin(p.text), p])), [pins]);
  const pending = useRef(0);

  const pin = useCallback(
    async (text: string) => {
      const key = normalizePin(text);
      const temp = { id: `${PENDING}${++pending.current}`, text };
      onPinsChange((list) =>
        list.some((p) => normalizePin(p.text) === key) ? list : [...list, temp],
      );
      try {
        const saved = await pinThreadText(threadId, text);
        onPinsChange((list) => [
          ...list.filter((p) => p.id !== temp.id && p.id !== saved.id),
          { id: saved.id, text: saved.text },
        ]);
      } catch (error) {
        onPinsChange((list) => list.filter((p) => p.id !== temp.id));
        toast.error(`Couldn't pin it: ${readableError(error)}`);
      }
    },
    [threadId, onPinsChange],
  );

  const unpin = useCallback(
    async (target: ThreadPinView) => {
      if (target.id.startsWith(PENDING)) return;
      onPinsChange((list) => list.filter((p) => p.id !== target.id));
      try {
        await unpinThreadPin(threadId, target.id);
      } catch (error) {
        onPinsChange((list) => (list.some((p) => p.id === target.id) ? list : [...list, target]));
        toast.error(`Couldn't unpin it: ${readableError(error)}`);
      }
    },
    [threadId, onPinsChange],
  );

  const value = useMemo<ThreadPins>(
    () => ({ pinOf: (text) => byKey.get(normalizePin(text)), pin, unpin }),
    [byKey, pin, unpin],
  );
  return <PinsContext.Provider value={value}>{children}</PinsContext.Provider>;
}

/** The thread's pins, or null where nothing may change (a shared thread). */
export function useThreadPins(): ThreadPins | null {
  return useContext(PinsContext);
}
