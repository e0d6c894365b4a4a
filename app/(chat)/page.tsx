import { headers } from "next/headers";
import { ChatPanel } from "@/components/chat/chat-panel";
import { currentActor } from "@/lib/auth/server";
import { chatPageBasics } from "@/lib/chat/page-props";

export const dynamic = "force-dynamic";

export default async function NewChatPage() {
  const actor = await currentActor(await headers());
  if (!actor) return null; // The layout starts a guest session first.
  const { models, defaultModel, maxMessageChars } = chatPageBasics();
  const threadId = crypto.randomUUID();
  return (
    <ChatPanel
      key={threadId}
      threadId={threadId}
      initialMessages={[]}
      models={models}
      initialModel={defaultModel}
      maxMessageChars={maxMessageChars}
      isNew
    />
  );
}
