"use client";
// The Files panel: the thread's workspace as a folder tree, spilled tool results listed apart,
// and a file opened from it (content, versions, download). Beside the chat on wide screens; a
// modal sheet on narrow ones (focus kept inside, Escape closes). Read-only everywhere.
import { type ReactNode, useEffect, useId, useRef, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { buttonClassName } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { LoadingState } from "@/components/ui/loading-state";
import { formatBytes } from "@/lib/chat/tool-view";
import type { FileEntry } from "@/lib/workspace/api-schemas";
import { buildFileTree, type TreeNode } from "@/lib/workspace/file-tree";
import { FileViewer } from "./file-viewer";
import { useFiles, useFileView } from "./use-workspace";
import type { WorkspaceBase } from "./workspace-api";

/** Wide enough for the panel beside the chat (Tailwind's `md`). */
const WIDE_QUERY = "(min-width: 768px)";

function useWide(): boolean {
  const [wide, setWide] = useState(true);
  useEffect(() => {
    const query = window.matchMedia(WIDE_QUERY);
    const update = () => setWide(query.matches);
    update();
    query.addEventListener("change", update);
    return () => query.removeEventListener("change", update);
  }, []);
  return wide;
}

function FileRow({ entry, name, onOpen }: { entry: FileEntry; name: string; onOpen: () => void }) {
  return (
    <button
      type="button"
      onClick={onOpen}
      className="flex w-full min-w-0 items-center gap-2 rounded-md px-2 py-1 text-left text-sm hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:bg-zinc-800"
      data-testid="file-entry"
      data-path={entry.path}
    >
      <svg
        aria-hidden="true"
        viewBox="0 0 16 16"
        className="size-3.5 shrink-0 text-zinc-500 dark:text-zinc-400"
      >
        <path
          d="M4 1.75h5l3 3v9.5H4z M9 1.75v3h3"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.25"
        />
      </svg>
      <span className="min-w-0 flex-1 truncate font-mono text-xs text-zinc-900 dark:text-zinc-100">
        {name}
      </span>
      <span className="shrink-0 text-xs tabular-nums text-zinc-600 dark:text-zinc-400">
        {formatBytes(entry.bytes)}
      </span>
    </button>
  );
}

function Tree({ nodes, onOpen }: { nodes: TreeNode<FileEntry>[]; onOpen: (path: string) => void }) {
  const [closed, setClosed] = useState<ReadonlySet<string>>(new Set());
  const render = (list: TreeNode<FileEntry>[]): ReactNode => (
    <ul className="space-y-0.5">
      {list.map((node) =>
        node.kind === "file" ? (
          <li key={node.path}>
            <FileRow entry={node.entry} name={node.name} onOpen={() => onOpen(node.path)} />
          </li>
        ) : (
          <li key={`${node.path}/`}>
            <button
              type="button"
              aria-expanded={!closed.has(node.path)}
              onClick={() =>
                setClosed((s) => {
                  const next = new Set(s);
                  if (next.has(node.path)) next.delete(node.path);
                  else next.add(node.path);
                  return next;
                })
              }
              className="flex w-full items-center gap-1.5 rounded-md px-2 py-1 text-left text-sm font-medium text-zinc-800 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-zinc-200 dark:hover:bg-zinc-800"
            >
              <svg
                aria-hidden="true"
                viewBox="0 0 16 16"
                className={`size-3 shrink-0 text-zinc-500 dark:text-zinc-400 transition-transform ${closed.has(node.path) ? "" : "rotate-90"}`}
              >
                <path d="M6 4l4 4-4 4" fill="none" stroke="currentColor" strokeWidth="1.75" />
              </svg>
              <span className="font-mono text-xs">{node.name}/</span>
              <span className="text-xs font-normal text-zinc-600 dark:text-zinc-400">
                {node.fileCount}
              </span>
            </button>
            {closed.has(node.path) ? null : (
              <div className="ml-3 border-l border-zinc-200 pl-1 dark:border-zinc-800">
                {render(node.children)}
              </div>
            )}
          </li>
        ),
      )}
    </ul>
  );
  return render(nodes);
}

function FileList({
  base,
  refreshKey,
  onOpen,
}: {
  base: WorkspaceBase;
  refreshKey: number;
  onOpen: (path: string) => void;
}) {
  const { state, reload } = useFiles(base, true, refreshKey);
  const data = state.data;
  const resultsId = useId();
  return (
    <div className="min-h-0 flex-1 overflow-y-auto p-2" aria-busy={state.kind === "loading"}>
      {state.kind === "error" ? (
        <Alert className="m-1" onRetry={reload}>
          Couldn't load the files: {state.message}
        </Alert>
      ) : null}
      {!data && state.kind === "loading" ? (
        <LoadingState label="Loading files…" className="p-2" />
      ) : null}
      {data && data.files.length === 0 && data.toolResults.length === 0 ? (
        <EmptyState layout="centered">No files yet — the agent's files appear here.</EmptyState>
      ) : null}
      {data && data.files.length > 0 ? (
        <section aria-label="Workspace files">
          <Tree nodes={buildFileTree(data.files)} onOpen={onOpen} />
        </section>
      ) : null}
      {data && data.toolResults.length > 0 ? (
        <section aria-labelledby={resultsId} className="mt-4">
          <h3
            id={resultsId}
            className="px-2 pb-1 text-xs font-semibold uppercase tracking-wide text-zinc-600 dark:text-zinc-400"
          >
            Tool results
          </h3>
          <ul className="space-y-0.5">
            {data.toolResults.map((entry) => (
              <li key={entry.path}>
                <FileRow
                  entry={entry}
                  name={entry.path.split("/").at(-1) ?? entry.path}
                  onOpen={() => onOpen(entry.path)}
                />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}

function PanelBody({
  base,
  refreshKey,
  titleId,
  onClose,
}: {
  base: WorkspaceBase;
  refreshKey: number;
  titleId: string;
  onClose: () => void;
}) {
  const [path, setPath] = useState<string | null>(null);
  const [version, setVersion] = useState<number | null>(null);
  const { state: view, reload } = useFileView(base, path, version, refreshKey);
  return (
    <>
      <div className="flex items-center justify-between gap-2 border-b border-zinc-200 px-3 py-2 dark:border-zinc-800">
        <h2 id={titleId} className="text-sm font-semibold">
          Files
        </h2>
        <button
          type="button"
          onClick={onClose}
          aria-label="Close files"
          className={buttonClassName({ variant: "ghost", size: "sm" })}
        >
          <svg aria-hidden="true" viewBox="0 0 16 16" className="size-4">
            <path d="M4 4l8 8M12 4l-8 8" fill="none" stroke="currentColor" strokeWidth="1.75" />
          </svg>
        </button>
      </div>
      {path === null ? (
        <FileList
          base={base}
          refreshKey={refreshKey}
          onOpen={(next) => {
            setVersion(null);
            setPath(next);
          }}
        />
      ) : (
        <FileViewer
          base={base}
          path={path}
          view={view}
          version={version}
          onVersion={setVersion}
          onBack={() => setPath(null)}
          onRetry={reload}
        />
      )}
    </>
  );
}

export function FilesPanel({
  base,
  open,
  onClose,
  refreshKey,
  id,
}: {
  base: WorkspaceBase;
  open: boolean;
  onClose: () => void;
  /** Changes when the workspace changed (a write, edit or delete result streamed in). */
  refreshKey: number;
  /** The id the toggle's aria-controls names. */
  id: string;
}) {
  const wide = useWide();
  const titleId = useId();
  const dialogRef = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !wide && !dialog.open) dialog.showModal();
    if ((!open || wide) && dialog.open) dialog.close();
  }, [open, wide]);

  if (!open) return null;
  const body = (
    <PanelBody base={base} refreshKey={refreshKey} titleId={titleId} onClose={onClose} />
  );
  if (wide) {
    return (
      <aside
        id={id}
        aria-labelledby={titleId}
        className="flex w-80 shrink-0 flex-col border-l border-zinc-200 bg-white lg:w-96 dark:border-zinc-800 dark:bg-zinc-900"
        data-testid="files-panel"
      >
        {body}
      </aside>
    );
  }
  return (
    <dialog
      ref={dialogRef}
      id={id}
      aria-labelledby={titleId}
      onClose={onClose}
      className="m-0 mt-auto h-[85dvh] open:flex max-h-none w-full max-w-none flex-col rounded-t-2xl border-t border-zinc-200 bg-white p-0 text-zinc-900 shadow-xl backdrop:bg-zinc-950/50 dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-100"
      data-testid="files-panel"
    >
      {body}
    </dialog>
  );
}
