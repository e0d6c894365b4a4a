// Row heights the message list expects before it has measured a row (docs/message-list.md,
// "Rendering"): a message's from its text and its kind (a question, a reply, code, tool calls),
// corrected by how the rows measured so far compare with their estimates, kind by kind, and a
// placeholder's as its messages' average (fixed once it is drawn, unless the list resizes it to
// keep the view still). The correction moves only when `settle()` is called
// (when rows are added or removed), so estimates of rows not measured yet never change between
// two layouts of the same rows: what is above the view stays where it was.
import type { ListItem, MessageItem } from "./list-items";

type Kind = "user" | "assistant" | "divider" | "other";

/** Layout of the list's column (max-w-3xl, 16 px text): characters per line, line heights. */
const USER_CHARS_PER_LINE = 70;
const ASSISTANT_CHARS_PER_LINE = 88;
const USER_LINE = 24;
const PROSE_LINE = 28;
const CODE_LINE = 24;
const USER_CHROME = 64;
const ASSISTANT_CHROME = 48;
const PARAGRAPH_GAP = 20;
const CODE_CHROME = 48;
const TOOL_CARD = 52;
const OTHER_PART = 40;
const DIVIDER = 150;
const LIVE_DIVIDER = 72;
const DRAFT_EDITOR = 1200;
const COMPACTION = 44;
/** A message's height before any has been measured. */
export const DEFAULT_MESSAGE_HEIGHT = 120;

interface Tally {
  measured: number;
  estimated: number;
}

function kindOf(item: ListItem): Kind {
  if (item.kind === "message") return item.message.role === "user" ? "user" : "assistant";
  return item.kind === "session_divider" ? "divider" : "other";
}

/** A message's height from its content alone. */
function contentHeight(item: MessageItem): number {
  const user = item.message.role === "user";
  let height = user ? USER_CHROME : ASSISTANT_CHROME;
  let paragraphs = 0;
  for (const part of item.message.parts) {
    if (part.type === "text") {
      for (const [i, block] of part.text.split("```").entries()) {
        if (i % 2 === 1) {
          height += CODE_CHROME + CODE_LINE * Math.max(1, block.trim().split("\n").length);
          continue;
        }
        for (const paragraph of block.split(/\n\s*\n/)) {
          const text = paragraph.trim();
          if (!text) continue;
          const perLine = user ? USER_CHARS_PER_LINE : ASSISTANT_CHARS_PER_LINE;
          const lines = text
            .split("\n")
            .reduce((sum, line) => sum + Math.max(1, Math.ceil(line.length / perLine)), 0);
          height += lines * (user ? USER_LINE : PROSE_LINE);
          paragraphs++;
        }
      }
    } else if (part.type.startsWith("tool-") || part.type === "dynamic-tool") {
      height += TOOL_CARD;
    } else if (part.type === "reasoning" || part.type === "file") {
      height += OTHER_PART;
    }
  }
  return height + Math.max(0, paragraphs - 1) * PARAGRAPH_GAP;
}

function baseHeight(item: ListItem): number {
  switch (item.kind) {
    case "message":
      return contentHeight(item);
    case "session_divider":
      if (item.live?.event === "awaiting_review") return DRAFT_EDITOR;
      return item.live ? LIVE_DIVIDER : DIVIDER;
    case "compaction":
      return COMPACTION;
    case "placeholder":
      return 0;
  }
}

export class RowHeights {
  private readonly base = new WeakMap<object, number>();
  private readonly live = new Map<Kind, Tally>();
  private settled = new Map<Kind, number>();
  private messages: Tally = { measured: 0, estimated: 0 };
  private perMessage = DEFAULT_MESSAGE_HEIGHT;
  private readonly counted = new Set<string>();
  /** A placeholder keeps the height it was first drawn at while it stands for the same messages. */
  private readonly placeholders = new Map<string, number>();

  private baseOf(item: ListItem): number {
    const source = item.kind === "message" ? item.message : item;
    let height = this.base.get(source);
    if (height === undefined) {
      height = baseHeight(item);
      this.base.set(source, height);
    }
    return height;
  }

  /** The height to expect for a row not measured yet. */
  estimate(item: ListItem | undefined): number {
    if (!item) return DEFAULT_MESSAGE_HEIGHT;
    if (item.kind === "placeholder") {
      // Drawn already: its height. Not yet: what its messages are expected at now.
      return (
        this.placeholders.get(`${item.key}:${item.count}`) ??
        Math.round(item.count * this.perMessage)
      );
    }
    return Math.round(this.baseOf(item) * (this.settled.get(kindOf(item)) ?? 1));
  }

  /** A row's first measured height, which the next `settle()` learns from. */
  measured(key: string, item: ListItem | undefined, size: number): void {
    if (!item || item.kind === "placeholder" || this.counted.has(key)) return;
    this.counted.add(key);
    const kind = kindOf(item);
    const tally = this.live.get(kind) ?? { measured: 0, estimated: 0 };
    const base = this.baseOf(item);
    tally.measured += size;
    tally.estimated += base;
    this.live.set(kind, tally);
    if (item.kind === "message") {
      this.messages.measured += size;
      this.messages.estimated += 1;
    }
  }

  /** Applies what the measured rows taught to the estimates from now on. */
  settle(): void {
    const next = new Map<Kind, number>();
    for (const [kind, tally] of this.live) {
      if (tally.estimated > 0) {
        next.set(kind, Math.min(4, Math.max(0.25, tally.measured / tally.estimated)));
      }
    }
    this.settled = next;
    if (this.messages.estimated > 0) {
      this.perMessage = this.messages.measured / this.messages.estimated;
    }
  }

  /** A placeholder's height as drawn: its messages at the expected height, fixed once drawn. */
  placeholderHeight(key: string, count: number): number {
    const id = `${key}:${count}`;
    let height = this.placeholders.get(id);
    if (height === undefined) {
      height = Math.round(count * this.perMessage);
      this.placeholders.set(id, height);
    }
    return height;
  }

  /**
   * Draws a placeholder at `height` from now on (`id` is its key and count, as in
   * `placeholderHeight`): the list lets one above the view take up a change of the rows between
   * it and the view, so that the rows in view stay where they are.
   */
  setPlaceholderHeight(id: string, height: number): void {
    this.placeholders.set(id, Math.max(0, height));
  }

  /** A message's expected height in a placeholder now. */
  messageHeight(): number {
    return this.perMessage;
  }
}
