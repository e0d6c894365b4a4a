"use client";
// The agent a chat view's thread runs with: a new chat keeps the choice for its first request
// (which creates the thread with it); an existing thread is moved at once, and put back if the
// server refuses.
import { useCallback, useState } from "react";
import { toast } from "sonner";
import { setThreadAgent } from "@/components/settings/agents/agent-api";

export function useThreadAgent({
  threadId,
  initialAgent,
}: {
  threadId: string;
  initialAgent: string;
}) {
  const [agent, setAgent] = useState(initialAgent);

  const changeAgent = useCallback(
    async (slug: string, threadExists: boolean) => {
      const previous = agent;
      setAgent(slug);
      if (!threadExists) return;
      try {
        setAgent(await setThreadAgent(threadId, slug));
      } catch (error) {
        setAgent(previous);
        toast.error(error instanceof Error ? error.message : "Couldn't change the agent.");
      }
    },
    [threadId, agent],
  );

  return { agent, setAgent, changeAgent };
}
