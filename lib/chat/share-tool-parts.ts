// A tool call as a shared thread's visitor sees it: rebuilt field by field from the stored part
// (type, state, input, result, approval outcome) with every string masked by the handoff
// redaction and the call and approval ids replaced by the link's stand-ins. Provider metadata
// never rides along.
import { redactText } from "@/lib/handoff/redact";
import { isToolPart, type ToolPart } from "./tool-view";
import type { ChatMessage } from "./types";

type Part = ChatMessage["parts"][number];

/** Deepest nesting copied; anything below is cut (tool inputs and results are shallow JSON). */
const MAX_DEPTH = 12;

/** A JSON value with every string redacted. */
function redactValue(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return redactText(value).text;
  if (value === null || typeof value !== "object") {
    return typeof value === "number" || typeof value === "boolean" ? value : undefined;
  }
  if (depth >= MAX_DEPTH) return "…";
  if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1) ?? null);
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const copied = redactValue(item, depth + 1);
    if (copied !== undefined) out[redactText(key).text] = copied;
  }
  return out;
}

/** The shared copy of a tool part, or null for anything that is not one. */
export function sharedToolPart(part: Part, standIn: (id: string) => string): Part | null {
  if (!isToolPart(part)) return null;
  const p: ToolPart = part;
  const base = {
    type: p.type,
    ...(p.type === "dynamic-tool" ? { toolName: redactText(p.toolName).text } : {}),
    toolCallId: standIn(p.toolCallId),
    state: p.state,
    input: redactValue(p.input),
  };
  const approval = p.approval
    ? {
        approval: {
          id: standIn(p.approval.id),
          ...(p.approval.approved === undefined ? {} : { approved: p.approval.approved }),
          ...(p.approval.reason ? { reason: redactText(p.approval.reason).text } : {}),
        },
      }
    : {};
  switch (p.state) {
    case "output-available":
      return { ...base, output: redactValue(p.output), ...approval } as Part;
    case "output-error":
      return { ...base, errorText: redactText(p.errorText ?? "").text, ...approval } as Part;
    default:
      return { ...base, ...approval } as Part;
  }
}
