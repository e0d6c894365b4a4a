// Shown while the Agents page loads its list on the server.
import { LoadingState } from "@/components/ui/loading-state";

export default function AgentsLoading() {
  return (
    <div className="h-full overflow-y-auto">
      <div className="mx-auto w-full max-w-3xl space-y-4 px-4 py-8 pt-14 sm:px-6 md:pt-8">
        <h1 className="text-xl font-semibold tracking-tight">Agents</h1>
        <LoadingState label="Loading agents…" rows={["w-full", "w-full", "w-full"]} />
      </div>
    </div>
  );
}
