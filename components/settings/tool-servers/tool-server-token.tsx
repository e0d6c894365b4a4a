"use client";
// A tool server's token: whether one is stored (it is never shown back), a form to enter a new
// one, and removing it. A token the server can no longer read asks to be entered again.
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { controlClassName, FieldError, FieldLabel, fieldControlProps } from "@/components/ui/field";
import { patchToolServer, type ToolServerEntry } from "./tool-server-api";

export function ToolServerToken({
  server,
  onChange,
}: {
  server: ToolServerEntry;
  onChange: (server: ToolServerEntry) => void;
}) {
  const unreadable = server.tokenState === "unreadable";
  const [editing, setEditing] = useState(false);
  const [token, setToken] = useState("");
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const open = editing || unreadable;

  useEffect(() => {
    if (editing) inputRef.current?.focus();
  }, [editing]);

  async function save(next: string | null) {
    setSaving(true);
    setError(null);
    try {
      const saved = await patchToolServer(server.id, { token: next });
      setToken("");
      setEditing(false);
      onChange(saved);
      toast.success(next === null ? `Removed the token of ${server.slug}` : "Token stored");
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : "Couldn't save the token.");
    } finally {
      setSaving(false);
    }
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (token.trim() !== "") void save(token.trim());
  }

  const state =
    server.tokenState === "stored" ? "Token stored" : unreadable ? "Token unreadable" : "No token";

  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span
          data-testid="token-state"
          className={
            unreadable
              ? "rounded bg-amber-100 px-1.5 py-0.5 text-xs font-medium text-amber-900 dark:bg-amber-950 dark:text-amber-200"
              : "rounded bg-zinc-100 px-1.5 py-0.5 text-xs text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300"
          }
        >
          {state}
        </span>
        {open ? null : (
          <Button
            size="sm"
            variant="ghost"
            aria-label={`${server.tokenState === "stored" ? "Replace" : "Add"} the token of ${server.slug}`}
            onClick={() => setEditing(true)}
          >
            {server.tokenState === "stored" ? "Replace token" : "Add token"}
          </Button>
        )}
        {server.tokenState !== "none" && !editing ? (
          <Button
            size="sm"
            variant="ghost"
            disabled={saving}
            aria-label={`Remove the token of ${server.slug}`}
            onClick={() => void save(null)}
          >
            Remove token
          </Button>
        ) : null}
      </div>
      {unreadable ? (
        <p className="text-sm text-amber-900 dark:text-amber-200">
          The stored token can no longer be read (the server's secret changed). Enter the token
          again to use this server's tools.
        </p>
      ) : null}
      {open ? (
        <form
          onSubmit={submit}
          aria-label={`Token for ${server.slug}`}
          className="flex flex-wrap items-end gap-2"
        >
          <div className="min-w-0 flex-1 space-y-1 sm:max-w-sm">
            <FieldLabel htmlFor={inputId} size="xs">
              New token
            </FieldLabel>
            <input
              {...fieldControlProps(inputId, { errors: error })}
              ref={inputRef}
              type="password"
              autoComplete="new-password"
              spellCheck={false}
              value={token}
              onChange={(e) => setToken(e.target.value)}
              disabled={saving}
              className={controlClassName()}
            />
          </div>
          <Button type="submit" size="sm" variant="primary" disabled={saving || !token.trim()}>
            {saving ? "Saving…" : "Save token"}
          </Button>
          {editing ? (
            <Button
              size="sm"
              variant="ghost"
              disabled={saving}
              onClick={() => {
                setEditing(false);
                setToken("");
                setError(null);
              }}
            >
              Cancel
            </Button>
          ) : null}
        </form>
      ) : null}
      {/* Outside the form: removing the token, with the form closed, can fail too. */}
      <FieldError id={inputId} errors={error} announce />
    </div>
  );
}
