import { notFound } from "next/navigation";
import { z } from "zod";
import { ChatPanel } from "@/components/chat/chat-panel";
import { listAgentOptions } from "@/lib/agents/profile-api";
import { pageActor } from "@/lib/auth/page-actor";
import { chatPageBasics } from "@/lib/chat/page-props";
import { loadThreadView } from "@/lib/runs/thread-open";

export const dynamic = "force-dynamic";

export default async function ThreadPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const actor = await pageActor();
  if (!actor) return null; // The layout starts a guest session first, then re-renders.
  if (!z.uuid().safeParse(id).success) notFound();
  const view = await loadThreadView({ userId: actor.id, threadId: id, limit: 200 });
  if (!view) notFound();
  const { models, defaultModel, maxMessageChars } = chatPageBasics();
  const agents = await listAgentOptions({ userId: actor.id });
  const model = models.some((m) => m.id === view.thread.model) ? view.thread.model : defaultModel;
  return (
    <ChatPanel
      key={id}
      threadId={id}
      initialMessages={view.messages}
      initialSessions={view.sessions}
      initialContext={view.context}
      olderCursor={view.olderCursor}
      initialAnswering={view.answering}
      initialLive={view.live}
      initialReset={view.reset}
      initialDraft={view.draft}
      initialReview={view.review}
      initialPins={view.pins}
      models={models}
      initialModel={model}
      agents={agents}
      initialAgent={view.thread.profile}
      maxMessageChars={maxMessageChars}
      isNew={false}
    />
  );
}
