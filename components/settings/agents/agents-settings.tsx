"use client";
// The Agents settings page's body: the list of agents and, when one is opened, its form (a new
// agent, one of the user's to edit, or the built-in one to read).
import { useEffect, useRef, useState } from "react";
import { toast } from "sonner";
import { fetchToolServers } from "@/components/settings/tool-servers/tool-server-api";
import { Button } from "@/components/ui/button";
import type { ProfileView } from "@/lib/agents/profile-view";
import { removeAgent } from "./agent-api";
import { AgentForm, type AgentFormMode, type ModelChoice } from "./agent-form";
import { AgentList } from "./agent-list";
import type { ToolServersLoad } from "./agent-mcp-tools";

type Open = { mode: AgentFormMode; profile: ProfileView } | null;

/** The built-in agent first, then the rest by name, as the API lists them. */
function sorted(profiles: ProfileView[]): ProfileView[] {
  const byName = (a: ProfileView, b: ProfileView) =>
    a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || a.id.localeCompare(b.id);
  return [...profiles.filter((p) => p.builtIn), ...profiles.filter((p) => !p.builtIn).sort(byName)];
}

export function AgentsSettings({
  initialProfiles,
  newDefaults,
  models,
  toolNames,
}: {
  initialProfiles: ProfileView[];
  /** What a new agent's form starts with. */
  newDefaults: ProfileView;
  models: ModelChoice[];
  toolNames: string[];
}) {
  const [profiles, setProfiles] = useState(initialProfiles);
  const [open, setOpen] = useState<Open>(null);
  const [toolServers, setToolServers] = useState<ToolServersLoad>({ state: "loading" });
  const newButton = useRef<HTMLButtonElement>(null);

  // The user's tool servers, whose tools a form can allow; read once when the page opens.
  useEffect(() => {
    let live = true;
    fetchToolServers().then(
      (servers) => live && setToolServers({ state: "ready", servers }),
      (error: unknown) =>
        live &&
        setToolServers({
          state: "failed",
          message: error instanceof Error ? error.message : "Couldn't load your tool servers.",
        }),
    );
    return () => {
      live = false;
    };
  }, []);

  function close() {
    setOpen(null);
    newButton.current?.focus();
  }

  function saved(profile: ProfileView) {
    setProfiles((list) => sorted([...list.filter((p) => p.id !== profile.id), profile]));
    toast.success(
      open?.mode === "create" ? `Created “${profile.name}”` : `Saved “${profile.name}”`,
    );
    close();
  }

  async function remove(profile: ProfileView) {
    await removeAgent(profile.id);
    setProfiles((list) => list.filter((p) => p.id !== profile.id));
    if (open?.profile.id === profile.id) setOpen(null);
    toast.success(`Deleted “${profile.name}”`);
  }

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="max-w-xl text-sm text-zinc-700 dark:text-zinc-300">
          An agent is a named set of instructions, model, tools and context settings a thread runs
          with. Agents that may transfer can pass the next stage of a run to another agent with a
          written brief.
        </p>
        <Button
          ref={newButton}
          variant="primary"
          disabled={open !== null}
          onClick={() => setOpen({ mode: "create", profile: newDefaults })}
        >
          New agent
        </Button>
      </div>
      {open ? (
        <AgentForm
          key={`${open.mode}:${open.profile.id}`}
          mode={open.mode}
          initial={open.profile}
          models={models}
          toolNames={toolNames}
          toolServers={toolServers}
          onSaved={saved}
          onCancel={close}
        />
      ) : null}
      <AgentList
        profiles={profiles}
        disabled={open !== null}
        onOpen={(profile) => setOpen({ mode: profile.builtIn ? "view" : "edit", profile })}
        onDelete={remove}
      />
    </div>
  );
}
