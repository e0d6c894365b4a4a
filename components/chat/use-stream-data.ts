"use client";
// What the page does with data parts as they arrive, from its own stream or a followed one: the
// context meter's reading, a reset's outcome told once (however many streams carry it), a reset
// that stopped at a draft (the editor opens with it), and an agent transfer that moves the header's
// agent.
import { useCallback, useRef } from "react";
import type { ContextPart, DraftView, SessionSummary } from "@/lib/chat/types";
import { announceAgentTransfer, announceReset } from "./session-live";
import type { LiveDataChunk } from "./use-live-streams";

export function useStreamData({
  setContext,
  setAgent,
  onDraft,
  sessions,
}: {
  setContext: (context: ContextPart) => void;
  setAgent: (agent: string) => void;
  onDraft: (draft: DraftView) => void;
  sessions: readonly SessionSummary[];
}) {
  const sessionsRef = useRef(sessions);
  sessionsRef.current = sessions;
  const announced = useRef(new Set<string>());
  return useCallback(
    (part: LiveDataChunk) => {
      if (part.type === "data-context") setContext(part.data);
      else if (part.type === "data-context-reset") {
        const key = `${part.data.oldSessionId}:${part.data.event}`;
        if (announced.current.has(key)) return;
        announced.current.add(key);
        announceReset(part.data, sessionsRef.current);
        if (part.data.event === "awaiting_review" && part.data.draft) onDraft(part.data.draft);
      } else if (part.type === "data-agent-handoff") {
        announceAgentTransfer(part.data);
        // The thread now runs with the target: the header's agent follows at once.
        setAgent(part.data.to.id);
      }
    },
    [setContext, setAgent, onDraft],
  );
}
