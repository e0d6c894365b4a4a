"use client";
// One workspace file in the files panel: its content (monospace, numbered lines), its versions
// (pick one to view) and a download of the version shown. A deleted version shows no content;
// its earlier versions stay readable.
import { useId } from "react";
import { Alert } from "@/components/ui/alert";
import { buttonClassName } from "@/components/ui/button";
import { LoadingState } from "@/components/ui/loading-state";
import { RelativeTime } from "@/components/ui/relative-time";
import { formatBytes } from "@/lib/chat/tool-view";
import type { FileResponse, FileVersionEntry } from "@/lib/workspace/api-schemas";
import type { Loaded } from "./use-workspace";
import { fileUrl, type WorkspaceBase } from "./workspace-api";

const OPS: Record<FileVersionEntry["op"], string> = {
  write: "written",
  edit: "edited",
  delete: "deleted",
};

function Lines({ content }: { content: string }) {
  const lines = content.split("\n");
  if (lines.length > 1 && lines.at(-1) === "") lines.pop();
  const width = String(lines.length).length;
  return (
    <pre
      className="overflow-x-auto rounded-md bg-zinc-50 py-2 font-mono text-xs leading-5 text-zinc-800 dark:bg-zinc-950 dark:text-zinc-200"
      data-testid="file-content"
    >
      {lines.map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a line's number is its identity here.
        <div key={i} className="flex">
          <span
            aria-hidden="true"
            className="shrink-0 select-none border-r border-zinc-200 pr-2 pl-2 text-right text-zinc-500 dark:text-zinc-400 tabular-nums dark:border-zinc-800"
            style={{ width: `calc(${width}ch + 1rem + 1px)` }}
          >
            {i + 1}
          </span>
          <code className="min-w-0 whitespace-pre-wrap break-words pr-2 pl-2">{line || " "}</code>
        </div>
      ))}
    </pre>
  );
}

export function FileViewer({
  base,
  path,
  view,
  version,
  onVersion,
  onBack,
  onRetry,
}: {
  base: WorkspaceBase;
  path: string;
  view: Loaded<FileResponse>;
  /** The version picked, or null for the newest. */
  version: number | null;
  onVersion: (version: number | null) => void;
  onBack: () => void;
  onRetry: () => void;
}) {
  const selectId = useId();
  const data = view.data?.file.path === path ? view.data : null;
  const file = data?.file;
  return (
    <div className="flex min-h-0 flex-1 flex-col" data-testid="file-viewer">
      <div className="flex items-center gap-2 border-b border-zinc-200 px-3 py-2 dark:border-zinc-800">
        <button
          type="button"
          onClick={onBack}
          className={buttonClassName({ variant: "ghost", size: "sm" })}
        >
          <span aria-hidden="true">←</span> All files
        </button>
      </div>
      <div className="min-h-0 flex-1 space-y-3 overflow-y-auto p-3">
        <h3 className="break-all font-mono text-sm font-semibold" data-testid="file-path">
          {path}
        </h3>
        {view.kind === "error" ? (
          <Alert onRetry={onRetry}>Couldn't open the file: {view.message}</Alert>
        ) : null}
        {!data && view.kind === "loading" ? <LoadingState label="Opening…" /> : null}
        {data && file ? (
          <>
            <div className="flex flex-wrap items-center gap-2 text-xs text-zinc-600 dark:text-zinc-400">
              <label htmlFor={selectId} className="font-medium text-zinc-800 dark:text-zinc-200">
                Version
              </label>
              <select
                id={selectId}
                value={version ?? "latest"}
                onChange={(e) =>
                  onVersion(e.target.value === "latest" ? null : Number(e.target.value))
                }
                className="rounded-md border border-zinc-300 bg-white px-1.5 py-1 text-xs text-zinc-900 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
              >
                <option value="latest">Newest (v{file.latestVersion})</option>
                {data.versions.map((v) => (
                  <option key={v.version} value={v.version}>
                    v{v.version} · {OPS[v.op]}
                    {v.op === "delete" ? "" : ` · ${formatBytes(v.bytes)}`}
                  </option>
                ))}
              </select>
              {file.content !== null ? (
                <a
                  href={fileUrl(base, path, { version: file.version, download: true })}
                  download
                  className={buttonClassName({ size: "sm" })}
                >
                  Download
                </a>
              ) : null}
            </div>
            <p className="text-xs text-zinc-600 dark:text-zinc-400" data-testid="file-meta">
              Version {file.version} of {file.latestVersion}
              {file.deleted ? " · deleted" : ` · ${formatBytes(file.bytes)}`} ·{" "}
              <RelativeTime iso={file.updatedAt} />
            </p>
            {file.content === null ? (
              <p className="rounded-md border border-dashed border-zinc-300 p-3 text-sm text-zinc-700 dark:border-zinc-700 dark:text-zinc-300">
                {file.version === file.latestVersion
                  ? "This file was deleted. Its earlier versions are still here: pick one above."
                  : "This version is a delete: the file had no content here."}
              </p>
            ) : file.content.length === 0 ? (
              <p className="text-sm italic text-zinc-600 dark:text-zinc-400">(empty file)</p>
            ) : (
              <Lines content={file.content} />
            )}
          </>
        ) : null}
      </div>
    </div>
  );
}
