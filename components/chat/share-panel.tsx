"use client";
// "Share" in the chat header: a small panel that shows the thread's read-only link if it has
// one, makes one only when asked ("Create link"), copies it, and revokes it.
import { useEffect, useId, useRef, useState } from "react";
import { toast } from "sonner";
import { z } from "zod";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { copyText } from "@/components/ui/clipboard";
import { LoadingState } from "@/components/ui/loading-state";
import { del, get, post } from "@/lib/api/client";

type LinkState =
  | { kind: "idle" }
  | { kind: "loading" }
  /** Private: no link exists until the user creates one. */
  | { kind: "private" }
  | { kind: "shared"; url: string }
  | { kind: "revoked" }
  | { kind: "error"; message: string };

const shareAnswer = z.object({ url: z.string() });
const currentAnswer = z.object({ url: z.string().nullable() });

export function SharePanel({ threadId, disabled }: { threadId: string; disabled: boolean }) {
  const [open, setOpen] = useState(false);
  const [link, setLink] = useState<LinkState>({ kind: "idle" });
  const panelId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);

  const share = async () => {
    setLink({ kind: "loading" });
    try {
      const body = await post(`/api/threads/${threadId}/share`, undefined, shareAnswer);
      setLink({ kind: "shared", url: body.url });
    } catch (error) {
      setLink({ kind: "error", message: error instanceof Error ? error.message : "Failed." });
    }
  };

  const look = async () => {
    setLink({ kind: "loading" });
    try {
      const body = await get(`/api/threads/${threadId}/share`, currentAnswer);
      setLink(body.url ? { kind: "shared", url: body.url } : { kind: "private" });
    } catch (error) {
      setLink({ kind: "error", message: error instanceof Error ? error.message : "Failed." });
    }
  };

  const revoke = async () => {
    setLink({ kind: "loading" });
    try {
      await del(`/api/threads/${threadId}/share`);
      setLink({ kind: "revoked" });
      toast("Share link revoked");
    } catch (error) {
      setLink({ kind: "error", message: error instanceof Error ? error.message : "Failed." });
    }
  };

  const toggle = () => {
    const next = !open;
    setOpen(next);
    // Opening the panel only looks: a public link exists only once the user asks for it.
    if (next && (link.kind === "idle" || link.kind === "error")) void look();
  };

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (rootRef.current && !rootRef.current.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        setOpen(false);
        buttonRef.current?.focus();
      }
    };
    document.addEventListener("pointerdown", onPointer);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("pointerdown", onPointer);
      document.removeEventListener("keydown", onKey);
    };
  }, [open]);

  return (
    <div ref={rootRef} className="relative">
      <Button
        ref={buttonRef}
        variant="secondary"
        size="md"
        aria-expanded={open}
        aria-controls={panelId}
        disabled={disabled}
        onClick={toggle}
      >
        Share
      </Button>
      {open ? (
        <section
          id={panelId}
          aria-label="Share this thread"
          data-closes-on-escape
          className="fixed inset-x-3 top-16 z-20 space-y-3 rounded-xl border border-zinc-200 bg-white p-3 text-sm shadow-lg sm:absolute sm:inset-x-auto sm:top-auto sm:right-0 sm:mt-2 sm:w-80 dark:border-zinc-800 dark:bg-zinc-900"
        >
          <p className="text-zinc-700 dark:text-zinc-300">
            Anyone with the link can read this thread, its session dividers and handoffs. They
            cannot write in it; secrets in messages are masked.
          </p>
          {link.kind === "loading" ? <LoadingState label="Working…" /> : null}
          {link.kind === "error" ? <Alert>{link.message}</Alert> : null}
          {link.kind === "shared" ? (
            <>
              <label className="block">
                <span className="mb-1 block text-xs font-medium text-zinc-600 dark:text-zinc-400">
                  Share link
                </span>
                <input
                  readOnly
                  value={link.url}
                  onFocus={(event) => event.currentTarget.select()}
                  className="w-full rounded-md border border-zinc-300 bg-zinc-50 px-2 py-1 font-mono text-xs dark:border-zinc-700 dark:bg-zinc-950"
                />
              </label>
              <div className="flex gap-2">
                <Button
                  variant="primary"
                  onClick={async () => {
                    if (await copyText(link.url)) toast("Share link copied");
                    else toast.error("Could not copy to the clipboard.");
                  }}
                >
                  Copy
                </Button>
                <Button variant="danger" onClick={() => void revoke()}>
                  Revoke link
                </Button>
              </div>
            </>
          ) : null}
          {link.kind === "private" ? (
            <>
              <p className="text-zinc-700 dark:text-zinc-300">This thread is private.</p>
              <Button variant="primary" onClick={() => void share()}>
                Create link
              </Button>
            </>
          ) : null}
          {link.kind === "revoked" ? (
            <>
              <p className="text-zinc-700 dark:text-zinc-300" role="status">
                Link revoked. Anyone opening it now gets “not found”.
              </p>
              <Button variant="secondary" onClick={() => void share()}>
                Create a new link
              </Button>
            </>
          ) : null}
        </section>
      ) : null}
    </div>
  );
}
