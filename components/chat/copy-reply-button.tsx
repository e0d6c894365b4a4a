"use client";
// Copies a reply's markdown (its text parts as the model wrote them) to the clipboard, with the
// selection fallback where the Clipboard API is missing (plain HTTP on a LAN, some webviews).
import { useEffect, useState } from "react";
import { toast } from "sonner";
import { copyText } from "@/components/ui/clipboard";

export function CopyReplyButton({ markdown }: { markdown: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2_000);
    return () => clearTimeout(timer);
  }, [copied]);

  async function copy() {
    if (await copyText(markdown)) setCopied(true);
    else toast.error("Couldn't copy the reply", { description: "Select the text and copy it." });
  }

  return (
    <button
      type="button"
      className="hover:underline"
      onClick={copy}
      aria-label={copied ? "Copied the reply" : "Copy the reply as markdown"}
      data-testid="copy-reply"
    >
      {copied ? "Copied" : "Copy"}
    </button>
  );
}
