import type { Metadata } from "next";
import Link from "next/link";
import { AgentsSettings } from "@/components/settings/agents/agents-settings";
import { listProfileViews, newProfileDefaults } from "@/lib/agents/profile-api";
import { PROFILE_TOOL_NAMES } from "@/lib/agents/profile-schema";
import { pageActor } from "@/lib/auth/page-actor";
import { chatPageBasics } from "@/lib/chat/page-props";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Agents · Baton" };

export default async function AgentsPage() {
  const actor = await pageActor();
  if (!actor) return null; // The layout starts a guest session first.
  const profiles = await listProfileViews({ userId: actor.id });
  const { models } = chatPageBasics();
  return (
    <div className="h-full overflow-y-auto">
      <div className="mx-auto w-full max-w-3xl space-y-6 px-4 py-8 pt-14 sm:px-6 md:pt-8">
        <nav aria-label="Breadcrumb" className="text-sm">
          <Link
            href="/settings"
            className="text-indigo-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-indigo-300"
          >
            Settings
          </Link>
        </nav>
        <h1 className="text-xl font-semibold tracking-tight">Agents</h1>
        <AgentsSettings
          initialProfiles={profiles}
          newDefaults={newProfileDefaults()}
          models={models.map((m) => ({ id: m.id, label: m.label }))}
          toolNames={[...PROFILE_TOOL_NAMES]}
        />
      </div>
    </div>
  );
}
