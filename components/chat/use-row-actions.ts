"use client";
// Each row's actions as the object the row already has while they offer the same thing
// (`sameRowActions`), so `MessageView`'s memo holds: the list renders again on every scroll
// frame, and without this every row in view would render again with it.
import { useCallback, useRef } from "react";
import { sameRowActions } from "@/lib/chat/row-actions";
import type { ChatMessage } from "@/lib/chat/types";
import type { MessageActions } from "./message-view";

const NO_ACTIONS: MessageActions = {};

/** Rows remembered: the rows in view and around them, many times over. */
const KEPT_ROWS = 256;

type ActionsFor = (message: ChatMessage) => MessageActions;

interface Kept {
  message: ChatMessage;
  from: ActionsFor;
  actions: MessageActions;
}

export function useRowActions(actionsFor: ActionsFor | undefined): ActionsFor {
  // By message id, oldest use first. A Map with a bound rather than a WeakMap keyed by message:
  // a WeakMap holding every message scrolled past made the browser's garbage collector pause
  // the page for 250–300 ms at a time in a 100,000-message thread.
  const kept = useRef(new Map<string, Kept>());
  return useCallback(
    (message: ChatMessage) => {
      if (!actionsFor) return NO_ACTIONS;
      const rows = kept.current;
      const last = rows.get(message.id);
      if (last) rows.delete(message.id);
      let actions: MessageActions;
      if (last?.message === message && last.from === actionsFor) actions = last.actions;
      else {
        const next = actionsFor(message);
        if (last && sameRowActions(last.actions, next)) actions = last.actions;
        else actions = Object.keys(next).length === 0 ? NO_ACTIONS : next;
      }
      rows.set(message.id, { message, from: actionsFor, actions });
      if (rows.size > KEPT_ROWS) {
        const oldest = rows.keys().next().value;
        if (oldest !== undefined) rows.delete(oldest);
      }
      return actions;
    },
    [actionsFor],
  );
}
