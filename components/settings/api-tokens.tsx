"use client";
// API tokens for the handoff API and MCP: create (the token is shown once), list, revoke.
import Link from "next/link";
import { type FormEvent, useId, useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { copyText } from "@/components/ui/clipboard";
import { EmptyState } from "@/components/ui/empty-state";
import { controlClassName, Field } from "@/components/ui/field";
import { RelativeTime } from "@/components/ui/relative-time";
import type { TokenView } from "@/lib/handoff-api/schemas";
import { createApiToken, revokeApiToken } from "./token-api";

type Scope = TokenView["scopes"][number];

const SCOPES: { id: Scope; label: string; help: string }[] = [
  { id: "read", label: "Read", help: "get and list handoffs" },
  { id: "write", label: "Write", help: "write, accept, cancel and continue handoffs" },
  { id: "groom", label: "Groom", help: "delete handoffs and groom old ones" },
];

export function ApiTokens({
  initialTokens,
  canCreate,
}: {
  initialTokens: TokenView[];
  canCreate: boolean;
}) {
  const [tokens, setTokens] = useState(initialTokens);
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<Scope[]>(["read", "write"]);
  const [creating, setCreating] = useState(false);
  const [fresh, setFresh] = useState<{ name: string; token: string } | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const freshId = useId();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setCreating(true);
    try {
      const created = await createApiToken({ name: name.trim(), scopes });
      const { token, ...view } = created;
      setTokens((list) => [view, ...list]);
      setFresh({ name: view.name, token });
      setName("");
    } catch (error) {
      toast.error(error instanceof Error ? error.message : "Couldn't create the token.");
    } finally {
      setCreating(false);
    }
  }

  async function revoke(token: TokenView) {
    setConfirming(null);
    try {
      await revokeApiToken(token.id);
      setTokens((list) => list.filter((t) => t.id !== token.id));
      toast.success(`Revoked “${token.name}”`);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : "Couldn't revoke the token.");
    }
  }

  return (
    <div className="space-y-4">
      {canCreate ? (
        <form onSubmit={submit} className="space-y-3" aria-label="Create an API token">
          <Field label="Token name">
            {(control) => (
              <input
                {...control}
                value={name}
                onChange={(e) => setName(e.target.value)}
                maxLength={100}
                required
                placeholder="e.g. laptop agent"
                className={controlClassName("max-w-sm")}
              />
            )}
          </Field>
          <fieldset>
            <legend className="text-sm font-medium">Scopes</legend>
            <div className="mt-1 flex flex-wrap gap-x-5 gap-y-1">
              {SCOPES.map((scope) => (
                <label key={scope.id} className="flex items-center gap-1.5 text-sm">
                  <input
                    type="checkbox"
                    checked={scopes.includes(scope.id)}
                    onChange={(e) =>
                      setScopes((list) =>
                        e.target.checked ? [...list, scope.id] : list.filter((s) => s !== scope.id),
                      )
                    }
                  />
                  {scope.label}
                  <span className="text-xs text-zinc-500 dark:text-zinc-400">({scope.help})</span>
                </label>
              ))}
            </div>
          </fieldset>
          <Button
            type="submit"
            variant="primary"
            disabled={creating || scopes.length === 0 || name.trim() === ""}
          >
            {creating ? "Creating…" : "Create token"}
          </Button>
        </form>
      ) : (
        <p className="text-sm text-zinc-700 dark:text-zinc-300">
          <Link
            href="/sign-up"
            className="font-medium text-indigo-700 underline dark:text-indigo-300"
          >
            Sign up
          </Link>{" "}
          to create API tokens. A guest account ends when you sign up or sign in, so it cannot hold
          long-lived credentials.
        </p>
      )}

      {fresh ? (
        <div
          role="status"
          aria-labelledby={freshId}
          className="rounded-lg border border-emerald-300 bg-emerald-50 p-3 dark:border-emerald-800 dark:bg-emerald-950"
        >
          <p id={freshId} className="text-sm font-medium">
            Copy the token “{fresh.name}” now. It will not be shown again.
          </p>
          <div className="mt-2 flex flex-wrap items-center gap-2">
            <code
              data-testid="new-token"
              className="rounded bg-white px-2 py-1 font-mono text-xs break-all dark:bg-zinc-900"
            >
              {fresh.token}
            </code>
            <Button
              size="sm"
              onClick={async () => {
                const ok = await copyText(fresh.token);
                if (ok) toast.success("Token copied");
                else toast.error("Couldn't copy; select the token and copy it by hand.");
              }}
            >
              Copy
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setFresh(null)}>
              Done
            </Button>
          </div>
        </div>
      ) : null}

      {tokens.length === 0 ? (
        <EmptyState>No API tokens.</EmptyState>
      ) : (
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Your API tokens</caption>
          <thead className="text-xs text-zinc-500 dark:text-zinc-400">
            <tr>
              <th className="py-1 pr-3 font-medium">Name</th>
              <th className="py-1 pr-3 font-medium">Token</th>
              <th className="py-1 pr-3 font-medium">Scopes</th>
              <th className="py-1 pr-3 font-medium">Created</th>
              <th className="py-1 pr-3 font-medium">Last used</th>
              <th className="py-1 font-medium">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {tokens.map((token) => (
              <tr key={token.id} className="border-t border-zinc-200 dark:border-zinc-800">
                <td className="py-2 pr-3 font-medium">{token.name}</td>
                <td className="py-2 pr-3 font-mono text-xs">{token.prefix}…</td>
                <td className="py-2 pr-3">{token.scopes.join(", ")}</td>
                <td className="py-2 pr-3">
                  <RelativeTime iso={token.created_at} />
                </td>
                <td className="py-2 pr-3">
                  {token.last_used_at ? <RelativeTime iso={token.last_used_at} /> : "Never"}
                </td>
                <td className="py-2 text-right">
                  {confirming === token.id ? (
                    <span className="inline-flex gap-1">
                      <Button
                        size="sm"
                        variant="danger"
                        aria-label={`Confirm revoking ${token.name}`}
                        onClick={() => void revoke(token)}
                      >
                        Revoke now
                      </Button>
                      <Button size="sm" variant="ghost" onClick={() => setConfirming(null)}>
                        Keep
                      </Button>
                    </span>
                  ) : (
                    <Button
                      size="sm"
                      variant="danger"
                      aria-label={`Revoke ${token.name}`}
                      onClick={() => setConfirming(token.id)}
                    >
                      Revoke
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
