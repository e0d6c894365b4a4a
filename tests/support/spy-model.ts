// The offline model wrapped to record every prompt it receives, so tests can assert on what a
// model actually saw (the clean-slate guarantee) rather than on what Baton meant to send.
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Prompt,
} from "@ai-sdk/provider";
import { createOfflineModel } from "@/lib/demo-model/model";

export interface RecordedCall {
  kind: "stream" | "generate";
  json: boolean;
  prompt: LanguageModelV3Prompt;
}

export function spyModel(): { model: LanguageModelV3; calls: RecordedCall[] } {
  const inner = createOfflineModel();
  const calls: RecordedCall[] = [];
  const record = (kind: RecordedCall["kind"], options: LanguageModelV3CallOptions) =>
    calls.push({ kind, json: options.responseFormat?.type === "json", prompt: options.prompt });
  const model: LanguageModelV3 = {
    specificationVersion: "v3",
    provider: inner.provider,
    modelId: inner.modelId,
    supportedUrls: inner.supportedUrls,
    doGenerate: (options) => {
      record("generate", options);
      return inner.doGenerate(options);
    },
    doStream: (options) => {
      record("stream", options);
      return inner.doStream(options);
    },
  };
  return { model, calls };
}

/** Every piece of text in a prompt, tagged with the role of the message that carries it. */
export function promptTexts(prompt: LanguageModelV3Prompt): { role: string; text: string }[] {
  return prompt.map((m) => ({
    role: m.role,
    text:
      typeof m.content === "string"
        ? m.content
        : m.content.map((p) => ("text" in p && typeof p.text === "string" ? p.text : "")).join(""),
  }));
}
