// Sidebar search: the titles that contain what the user typed, asked of the server (so threads
// not loaded in the list are found too), a short pause after typing, older answers discarded.
import { useEffect, useState } from "react";
import { fetchThreadSummaries, type ThreadSummary } from "./thread-api";
import { errorMessage, THREADS_CHANGED_EVENT } from "./use-threads";

const SEARCH_DEBOUNCE_MS = 200;

export type SearchState =
  | { status: "idle" }
  | { status: "searching" }
  | { status: "done"; threads: ThreadSummary[]; more: boolean }
  | { status: "error"; message: string };

export function useThreadSearch(query: string): SearchState {
  const [state, setState] = useState<SearchState>({ status: "idle" });
  const [version, setVersion] = useState(0);
  const trimmed = query.trim();

  // A rename or a new thread elsewhere can change what matches.
  useEffect(() => {
    const bump = () => setVersion((v) => v + 1);
    window.addEventListener(THREADS_CHANGED_EVENT, bump);
    return () => window.removeEventListener(THREADS_CHANGED_EVENT, bump);
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `version` re-runs the search after a change elsewhere
  useEffect(() => {
    if (trimmed === "") {
      setState({ status: "idle" });
      return;
    }
    setState((current) => (current.status === "done" ? current : { status: "searching" }));
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      try {
        const page = await fetchThreadSummaries(null, {
          query: trimmed,
          signal: controller.signal,
        });
        setState({ status: "done", threads: page.threads, more: page.nextCursor !== null });
      } catch (error) {
        if (controller.signal.aborted) return;
        setState({ status: "error", message: errorMessage(error, "Couldn't search.") });
      }
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [trimmed, version]);

  return state;
}
