import type { Metadata } from "next";
import Link from "next/link";
import { ApiTokens } from "@/components/settings/api-tokens";
import { GroomHandoffs } from "@/components/settings/groom-handoffs";
import { ToolServersSettings } from "@/components/settings/tool-servers/tool-servers-settings";
import { pageActor } from "@/lib/auth/page-actor";
import { listUserApiTokens } from "@/lib/handoff-api/api-tokens";
import { handoffTtlDays } from "@/lib/handoff-api/groom";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Settings · Baton" };

export default async function SettingsPage() {
  const actor = await pageActor();
  if (!actor) return null; // The layout starts a guest session first.
  const tokens = await listUserApiTokens({ userId: actor.id });
  return (
    <div className="h-full overflow-y-auto">
      <div className="mx-auto w-full max-w-3xl space-y-10 px-6 py-8 pt-14 md:pt-8">
        <h1 className="text-xl font-semibold tracking-tight">Settings</h1>
        <section aria-labelledby="agents-heading" className="space-y-3">
          <h2 id="agents-heading" className="text-lg font-semibold">
            Agents
          </h2>
          <p className="text-sm text-zinc-700 dark:text-zinc-300">
            Define agents with their own instructions, model, tools and context settings, and choose
            which agents may transfer work to each other.
          </p>
          <Link
            href="/settings/agents"
            className="inline-flex items-center rounded-lg border border-zinc-300 bg-white px-3 py-1.5 text-sm font-medium text-zinc-800 hover:bg-zinc-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:hover:bg-zinc-800"
          >
            Manage agents
          </Link>
        </section>
        <section aria-labelledby="tool-servers-heading" className="space-y-3">
          <h2 id="tool-servers-heading" className="text-lg font-semibold">
            Tool servers
          </h2>
          <p className="text-sm text-zinc-700 dark:text-zinc-300">
            Outside MCP servers whose tools your agents may call. Allow a server's tools for an
            agent in{" "}
            <Link
              href="/settings/agents"
              className="font-medium text-indigo-700 underline dark:text-indigo-300"
            >
              Agents
            </Link>
            ; a tool asks for your approval before each call unless you mark it read-only.
          </p>
          <ToolServersSettings />
        </section>
        <section aria-labelledby="api-tokens-heading" className="space-y-3">
          <h2 id="api-tokens-heading" className="text-lg font-semibold">
            API tokens
          </h2>
          <p className="text-sm text-zinc-700 dark:text-zinc-300">
            Scripts and agents use a token as <code>Authorization: Bearer &lt;token&gt;</code> on
            the handoff API (<code>/api/handoffs</code>) and the MCP server (<code>/api/mcp</code>).
            Anyone holding a token acts as you within its scopes.
          </p>
          <ApiTokens initialTokens={tokens} canCreate={!actor.isAnonymous} />
        </section>
        <section aria-labelledby="groom-heading" className="space-y-3">
          <h2 id="groom-heading" className="text-lg font-semibold">
            Handoffs
          </h2>
          <GroomHandoffs ttlDays={handoffTtlDays()} />
        </section>
      </div>
    </div>
  );
}
