// Server-side props every chat page needs: the configured models and the default one.
import "server-only";
import { defaultModelId, listConfiguredModels } from "@/lib/ai/providers";
import { MAX_MESSAGE_CHARS } from "./request";

export function chatPageBasics() {
  const models = listConfiguredModels().map((m) => ({
    id: m.id,
    label: m.label,
    offline: m.offline,
  }));
  return { models, defaultModel: defaultModelId(), maxMessageChars: MAX_MESSAGE_CHARS };
}
