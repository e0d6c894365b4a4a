"use client";
// Which handoff cards are open, held above the virtualized list: rows unmount when they scroll
// out of range, and a card the reader opened must still be open when it scrolls back in.
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from "react";

type Expanded = { isOpen: (key: string) => boolean; setOpen: (key: string, open: boolean) => void };

const ExpandedHandoffs = createContext<Expanded | null>(null);

export function ExpandedHandoffsProvider({ children }: { children: ReactNode }) {
  const [open, setOpenKeys] = useState<ReadonlySet<string>>(new Set());
  const setOpen = useCallback((key: string, value: boolean) => {
    setOpenKeys((keys) => {
      if (keys.has(key) === value) return keys;
      const next = new Set(keys);
      if (value) next.add(key);
      else next.delete(key);
      return next;
    });
  }, []);
  const value = useMemo(
    () => ({ isOpen: (key: string) => open.has(key), setOpen }),
    [open, setOpen],
  );
  return <ExpandedHandoffs.Provider value={value}>{children}</ExpandedHandoffs.Provider>;
}

/** Open state for one card: shared through the provider, or local when there is none. */
export function useExpandedHandoff(key: string): [boolean, (open: boolean) => void] {
  const shared = useContext(ExpandedHandoffs);
  const [local, setLocal] = useState(false);
  const setShared = useCallback((value: boolean) => shared?.setOpen(key, value), [shared, key]);
  return shared ? [shared.isOpen(key), setShared] : [local, setLocal];
}
