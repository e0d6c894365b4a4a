import { describe, expect, it } from "vitest";
import { closedWhenGone } from "./record";

/** A stream that sends `first` and then never ends, like a follower of a producer that died. */
function hanging(first: string) {
  let cancelled = false;
  const stream = new ReadableStream<string>({
    start(controller) {
      controller.enqueue(first);
    },
    cancel() {
      cancelled = true;
    },
  });
  return { stream, cancelled: () => cancelled };
}

async function readAll(stream: ReadableStream<string>): Promise<string[]> {
  const chunks: string[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return chunks;
    chunks.push(value);
  }
}

describe("closedWhenGone", () => {
  it("closes a follower whose run is no longer streaming, after two checks, keeping what came", async () => {
    const source = hanging("data: a\n\n");
    let checks = 0;
    const chunks = await readAll(
      closedWhenGone(
        source.stream,
        async () => {
          checks++;
          return false;
        },
        5,
      ),
    );
    expect(chunks).toEqual(["data: a\n\n"]);
    expect(checks).toBe(2);
    expect(source.cancelled()).toBe(true);
  });

  it("passes a live stream through to its end", async () => {
    const stream = new ReadableStream<string>({
      start(controller) {
        controller.enqueue("x");
        setTimeout(() => {
          controller.enqueue("y");
          controller.close();
        }, 30);
      },
    });
    expect(await readAll(closedWhenGone(stream, async () => true, 5))).toEqual(["x", "y"]);
  });

  it("a check that fails (database unreachable) does not close the stream", async () => {
    const stream = new ReadableStream<string>({
      start(controller) {
        controller.enqueue("x");
        setTimeout(() => {
          controller.enqueue("y");
          controller.close();
        }, 40);
      },
    });
    const out = closedWhenGone(stream, () => Promise.reject(new Error("down")), 5);
    expect(await readAll(out)).toEqual(["x", "y"]);
  });
});
