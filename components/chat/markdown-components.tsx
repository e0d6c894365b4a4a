"use client";
// Markdown element overrides for message text: an image in a message never makes the browser
// fetch a URL (an external image is a tracking beacon on every reader, on the share page too), so
// it renders as a link showing its alt text. (Streamdown's sanitizer already drops data: sources.)
import type { ComponentProps } from "react";
import type { Components } from "streamdown";

function MessageImage({ src, alt }: ComponentProps<"img"> & { node?: unknown }) {
  const url = typeof src === "string" ? src.trim() : "";
  const label = alt?.trim() || url;
  if (!url) return label ? <span>{label}</span> : null;
  const host = hostOf(url);
  // A plain link, so the reader sees what it is and where it points before following it.
  return (
    <a
      href={url}
      title={url}
      target="_blank"
      rel="noopener noreferrer nofollow"
      className="break-all font-medium text-indigo-600 underline dark:text-indigo-400"
    >
      Image: {label}
      {host && label !== url ? ` (${host})` : null}
    </a>
  );
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).host || null;
  } catch {
    return null;
  }
}

export const messageMarkdownComponents: Components = {
  img: MessageImage,
  // <picture><source srcset="…"> would fetch without an <img>: drop the sources, keep the img.
  source: () => null,
};
