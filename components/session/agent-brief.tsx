"use client";
// The brief inside an agent transfer's divider: its title or objective when collapsed; expanded,
// the brief as the receiving agent read it (Markdown), with a copy action.
import * as Collapsible from "@radix-ui/react-collapsible";
import { toast } from "sonner";
import { Streamdown } from "streamdown";
import { messageMarkdownComponents } from "@/components/chat/markdown-components";
import { Button } from "@/components/ui/button";
import { copyText } from "@/components/ui/clipboard";
import { rehypePluginsFor } from "@/lib/chat/markdown-plugins";
import type { HandoffView } from "@/lib/chat/types";
import { useExpandedHandoff } from "./expanded-handoffs";
import { Chevron } from "./handoff-summary";

export function AgentBriefCard({
  handoff,
  sessionNumber,
}: {
  handoff: HandoffView;
  sessionNumber: number;
}) {
  const [open, setOpen] = useExpandedHandoff(`${sessionNumber}:${handoff.id}`);
  const brief = handoff.brief;
  const summary = brief?.title || brief?.objective || "No objective recorded.";

  const copyMarkdown = async () => {
    if (await copyText(handoff.markdown)) toast("Brief copied as Markdown");
    else toast.error("Could not copy to the clipboard.");
  };

  return (
    <Collapsible.Root
      open={open}
      onOpenChange={setOpen}
      className="overflow-hidden rounded-xl border border-zinc-200 bg-zinc-50 text-left dark:border-zinc-800 dark:bg-zinc-900"
      data-testid="agent-brief"
    >
      <div className="flex items-center gap-3 px-3 py-2">
        <div className="min-w-0 flex-1">
          <p className="text-xs font-medium text-zinc-600 dark:text-zinc-400">Transfer brief</p>
          <p className="truncate text-sm text-zinc-800 dark:text-zinc-200" title={summary}>
            {summary}
          </p>
        </div>
        <Collapsible.Trigger className="inline-flex shrink-0 items-center gap-1 rounded-md px-2 py-1 text-xs font-medium text-indigo-700 hover:bg-indigo-50 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-indigo-300 dark:hover:bg-indigo-950">
          <Chevron open={open} />
          {open ? "Collapse" : "Expand"}
          <span className="sr-only"> transfer brief for session {sessionNumber}</span>
        </Collapsible.Trigger>
      </div>
      <Collapsible.Content data-testid="handoff-details">
        {/* A long brief scrolls inside the card so the thread around it stays in view. */}
        <section
          aria-label={`Transfer brief for session ${sessionNumber}`}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard to scroll it.
          tabIndex={0}
          className="prose prose-sm prose-zinc max-h-96 max-w-none overflow-y-auto break-words border-t border-zinc-200 px-3 py-3 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:prose-invert dark:border-zinc-800"
        >
          {/* Written whole before it is shown: parsed once, not block by block as a stream. */}
          <Streamdown
            mode="static"
            components={messageMarkdownComponents}
            rehypePlugins={rehypePluginsFor(handoff.markdown)}
          >
            {handoff.markdown}
          </Streamdown>
        </section>
        <div className="flex flex-wrap items-center gap-2 border-t border-zinc-200 px-3 py-2 dark:border-zinc-800">
          <Button size="sm" onClick={() => void copyMarkdown()}>
            Copy as Markdown
          </Button>
          {handoff.redactions.length > 0 ? (
            <span className="text-xs text-zinc-600 dark:text-zinc-400">
              {handoff.redactions.length === 1
                ? "1 secret was masked"
                : `${handoff.redactions.length} secrets were masked`}
            </span>
          ) : null}
        </div>
      </Collapsible.Content>
    </Collapsible.Root>
  );
}
