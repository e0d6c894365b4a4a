// Reads a chat response's SSE stream as it arrives, so a test can act when a given part shows
// up (a reset blocking input, say) while the stream goes on.
import type { SsePart } from "./chat";

export interface OpenStream {
  /** Every part received so far, in order. */
  parts: SsePart[];
  /** Resolves true once a received part matches, false if the stream ends first. */
  until: (match: (part: SsePart) => boolean) => Promise<boolean>;
  /** Resolves with every part once the stream has ended. */
  done: Promise<SsePart[]>;
}

export function openStream(response: Response): OpenStream {
  if (!response.body) throw new Error("the response has no body");
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const parts: SsePart[] = [];
  const listeners = new Set<() => void>();
  let ended = false;
  const notify = () => {
    for (const listener of [...listeners]) listener();
  };
  const done = (async () => {
    let buffer = "";
    for (;;) {
      const { value, done: finished } = await reader.read();
      if (finished) break;
      buffer += value;
      let end = buffer.indexOf("\n\n");
      while (end >= 0) {
        const chunk = buffer.slice(0, end).trim();
        buffer = buffer.slice(end + 2);
        if (chunk.startsWith("data: ") && chunk !== "data: [DONE]") {
          parts.push(JSON.parse(chunk.slice("data: ".length)) as SsePart);
        }
        end = buffer.indexOf("\n\n");
      }
      notify();
    }
    ended = true;
    notify();
    return parts;
  })();
  const until = (match: (part: SsePart) => boolean) =>
    new Promise<boolean>((resolve) => {
      const check = () => {
        if (parts.some(match)) {
          listeners.delete(check);
          resolve(true);
        } else if (ended) {
          listeners.delete(check);
          resolve(false);
        }
      };
      listeners.add(check);
      check();
    });
  return { parts, until, done };
}
