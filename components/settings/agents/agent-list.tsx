"use client";
// The list of agents: the built-in Default (view only) and the user's own, each with Edit and
// Delete. Deleting asks first; a refusal (an agent threads still use) is shown on its row.
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import type { ProfileView } from "@/lib/agents/profile-view";

export function AgentList({
  profiles,
  onOpen,
  onDelete,
  disabled,
}: {
  profiles: readonly ProfileView[];
  onOpen: (profile: ProfileView) => void;
  /** Resolves when deleted; rejects with the reason to show on the row. */
  onDelete: (profile: ProfileView) => Promise<void>;
  disabled: boolean;
}) {
  const [confirming, setConfirming] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const [refusals, setRefusals] = useState<Record<string, string>>({});
  const own = profiles.filter((p) => !p.builtIn);

  async function remove(profile: ProfileView) {
    setConfirming(null);
    setDeleting(profile.id);
    setRefusals(({ [profile.id]: _, ...rest }) => rest);
    try {
      await onDelete(profile);
    } catch (error) {
      const message = error instanceof Error ? error.message : "Couldn't delete the agent.";
      setRefusals((all) => ({ ...all, [profile.id]: message }));
    } finally {
      setDeleting(null);
    }
  }

  return (
    <div className="space-y-3">
      <ul aria-label="Agents" className="divide-y divide-zinc-200 dark:divide-zinc-800">
        {profiles.map((profile) => (
          <li key={profile.id} className="py-3">
            <div className="flex flex-wrap items-start justify-between gap-2">
              <div className="min-w-0">
                <p className="font-medium">
                  {profile.name}{" "}
                  {profile.builtIn ? (
                    <span className="ml-1 rounded bg-zinc-100 px-1.5 py-0.5 text-xs font-normal text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300">
                      Built-in
                    </span>
                  ) : null}
                </p>
                <p className="font-mono text-xs text-zinc-600 dark:text-zinc-400">{profile.id}</p>
                {profile.description ? (
                  <p className="mt-1 text-sm break-words text-zinc-700 dark:text-zinc-300">
                    {profile.description}
                  </p>
                ) : null}
              </div>
              <div className="flex shrink-0 gap-1">
                <Button
                  size="sm"
                  aria-label={`${profile.builtIn ? "View" : "Edit"} ${profile.name}`}
                  disabled={disabled}
                  onClick={() => onOpen(profile)}
                >
                  {profile.builtIn ? "View" : "Edit"}
                </Button>
                {profile.builtIn ? null : confirming === profile.id ? (
                  <>
                    <Button
                      size="sm"
                      variant="danger"
                      aria-label={`Confirm deleting ${profile.name}`}
                      onClick={() => void remove(profile)}
                    >
                      Delete now
                    </Button>
                    <Button size="sm" variant="ghost" onClick={() => setConfirming(null)}>
                      Keep
                    </Button>
                  </>
                ) : (
                  <Button
                    size="sm"
                    variant="danger"
                    aria-label={`Delete ${profile.name}`}
                    disabled={disabled || deleting === profile.id}
                    onClick={() => setConfirming(profile.id)}
                  >
                    {deleting === profile.id ? "Deleting…" : "Delete"}
                  </Button>
                )}
              </div>
            </div>
            {refusals[profile.id] ? (
              <Alert variant="warning" appearance="panel" className="mt-2">
                {refusals[profile.id]}
              </Alert>
            ) : null}
          </li>
        ))}
      </ul>
      {own.length === 0 ? (
        <EmptyState>
          You have no agents of your own yet. Create one to give a thread its own instructions,
          model, tools and context settings.
        </EmptyState>
      ) : null}
    </div>
  );
}
