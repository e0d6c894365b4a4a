"use client";
// The owner's workspace beside the chat: the Files panel reloads when a write, edit or delete
// finishes in the live replies, and the plan follows the update_plan results streaming in.
import { useMemo } from "react";
import { usePlan } from "@/components/workspace/use-plan";
import { ownerWorkspaceBase } from "@/components/workspace/workspace-api";
import type { QueuedEntry } from "@/lib/chat/live-messages";
import { latestStreamedPlan, workspaceChangeCount } from "@/lib/chat/tool-view";
import type { ChatMessage } from "@/lib/chat/types";

export function useLiveWorkspace({
  threadId,
  threadStored,
  messages,
  queued,
}: {
  threadId: string;
  /** Whether the server has the thread yet (a new one is stored with its first message). */
  threadStored: boolean;
  messages: ChatMessage[];
  queued: QueuedEntry[];
}) {
  const liveMessages = useMemo(
    () => [...messages, ...queued.flatMap((e) => (e.answer ? [e.answer] : []))],
    [messages, queued],
  );
  const workspaceVersion = useMemo(() => workspaceChangeCount(liveMessages), [liveMessages]);
  const streamedPlan = useMemo(() => latestStreamedPlan(liveMessages), [liveMessages]);
  const workspaceBase = ownerWorkspaceBase(threadId);
  const plan = usePlan(workspaceBase, threadStored, streamedPlan);
  return { workspaceBase, workspaceVersion, plan };
}
