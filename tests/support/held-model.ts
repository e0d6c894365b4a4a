// The offline model held before its first word until the test releases it: a reply that is
// still being written while the test acts on the thread.
import type { LanguageModelV3 } from "@ai-sdk/provider";
import { createOfflineModel } from "@/lib/demo-model/model";

export function heldModel(): { model: LanguageModelV3; release: () => void } {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  const inner = createOfflineModel();
  const model: LanguageModelV3 = {
    ...inner,
    doGenerate: (options) => inner.doGenerate(options),
    doStream: async (options) => {
      await held;
      return inner.doStream(options);
    },
  };
  return { model, release };
}
