"use client";
// The files panel's data: the file list while the panel is open (reloaded when `refreshKey`
// changes, i.e. a write, edit or delete result streamed in), and the file being viewed.
import { useCallback, useEffect, useRef, useState } from "react";
import type { FileResponse, FilesResponse } from "@/lib/workspace/api-schemas";
import { fetchFile, fetchFiles, type WorkspaceBase } from "./workspace-api";

export type Loaded<T> =
  | { kind: "loading"; data: T | null }
  | { kind: "ready"; data: T }
  | { kind: "error"; data: T | null; message: string };

const messageOf = (error: unknown) =>
  error instanceof Error ? error.message : "Something went wrong.";

/** Loads with `load` whenever one of `deps` changes; a stale answer never overwrites a newer. */
function useLoaded<T>(load: (() => Promise<T>) | null, deps: readonly unknown[]) {
  const [state, setState] = useState<Loaded<T>>({ kind: "loading", data: null });
  const request = useRef(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  const reload = useCallback(() => {
    const run = loadRef.current;
    if (!run) return;
    const id = ++request.current;
    setState((s) => ({ kind: "loading", data: s.data }));
    run().then(
      (data) => {
        if (id === request.current) setState({ kind: "ready", data });
      },
      (error: unknown) => {
        if (id === request.current) {
          setState((s) => ({ kind: "error", data: s.data, message: messageOf(error) }));
        }
      },
    );
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller's deps decide when to load.
  useEffect(() => {
    if (load) reload();
  }, [reload, load === null, ...deps]);
  return { state, reload };
}

export function useFiles(base: WorkspaceBase, enabled: boolean, refreshKey: number) {
  return useLoaded<FilesResponse>(enabled ? () => fetchFiles(base) : null, [base, refreshKey]);
}

/**
 * One file: the version picked, or (with none picked) its newest, following new versions as
 * they are written.
 */
export function useFileView(
  base: WorkspaceBase,
  path: string | null,
  version: number | null,
  refreshKey: number,
) {
  return useLoaded<FileResponse>(
    path === null ? null : () => fetchFile(base, path, version ?? undefined),
    [base, path, version, version === null ? refreshKey : 0],
  );
}
