import { ChatPanel } from "@/components/chat/chat-panel";
import { listAgentOptions } from "@/lib/agents/profile-api";
import { defaultProfile } from "@/lib/agents/profiles";
import { resolveModelInfo, resolveStrategy } from "@/lib/ai/registry";
import { pageActor } from "@/lib/auth/page-actor";
import { chatPageBasics } from "@/lib/chat/page-props";
import type { ContextPart } from "@/lib/chat/types";
import { ContinueList } from "./_components/continue-list";

export const dynamic = "force-dynamic";

export default async function NewChatPage() {
  const actor = await pageActor();
  if (!actor) return null; // The layout starts a guest session first.
  const { models, defaultModel, maxMessageChars } = chatPageBasics();
  const agents = await listAgentOptions({ userId: actor.id });
  const threadId = crypto.randomUUID();
  // An empty context before the first message, so the meter shows the window it will fill.
  const profile = defaultProfile();
  const initialContext: ContextPart = {
    inputTokens: 0,
    contextWindow: resolveModelInfo(defaultModel).contextWindow,
    utilization: 0,
    threshold: profile.resetThreshold,
    strategy: resolveStrategy(profile.contextStrategy, defaultModel),
  };
  return (
    <>
      <ContinueList userId={actor.id} />
      <ChatPanel
        key={threadId}
        threadId={threadId}
        initialMessages={[]}
        initialSessions={[]}
        initialContext={initialContext}
        olderCursor={null}
        models={models}
        initialModel={defaultModel}
        agents={agents}
        initialAgent="default"
        maxMessageChars={maxMessageChars}
        isNew
      />
    </>
  );
}
