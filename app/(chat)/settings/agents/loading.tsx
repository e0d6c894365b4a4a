// Shown while the Agents page loads its list on the server.
export default function AgentsLoading() {
  return (
    <div className="h-full overflow-y-auto">
      <div
        role="status"
        aria-live="polite"
        className="mx-auto w-full max-w-3xl space-y-4 px-4 py-8 pt-14 sm:px-6 md:pt-8"
      >
        <h1 className="text-xl font-semibold tracking-tight">Agents</h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">Loading agents…</p>
        <div aria-hidden="true" className="space-y-3">
          {[0, 1, 2].map((row) => (
            <div key={row} className="h-12 animate-pulse rounded-md bg-zinc-100 dark:bg-zinc-800" />
          ))}
        </div>
      </div>
    </div>
  );
}
