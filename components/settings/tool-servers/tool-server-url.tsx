"use client";
// A tool server's URL: shown under its name, with a form to change it. A new URL lists the
// server's tools again (a server that cannot be reached there comes back with its error).
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { controlClassName, Field } from "@/components/ui/field";
import { ApiError } from "@/lib/api/client";
import { patchToolServer, type ToolServerEntry } from "./tool-server-api";

export function ToolServerUrl({
  server,
  onChange,
}: {
  server: ToolServerEntry;
  onChange: (server: ToolServerEntry) => void;
}) {
  const [editing, setEditing] = useState(false);
  const [url, setUrl] = useState(server.url);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const editRef = useRef<HTMLButtonElement>(null);
  const wasEditing = useRef(false);
  const inputId = useId();

  // Opening focuses the field; closing gives focus back to the button that opened it.
  useEffect(() => {
    if (editing) inputRef.current?.select();
    else if (wasEditing.current) editRef.current?.focus();
    wasEditing.current = editing;
  }, [editing]);

  function close() {
    setEditing(false);
    setUrl(server.url);
    setError(null);
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const next = url.trim();
    if (next === "" || next === server.url) {
      close();
      return;
    }
    setSaving(true);
    setError(null);
    try {
      const saved = await patchToolServer(server.id, { url: next });
      onChange(saved);
      setEditing(false);
      setUrl(saved.url);
      if (saved.lastError) toast.error(`Saved, but couldn't reach ${server.slug} there`);
      else toast.success(`Listed ${saved.tools.length} tool${saved.tools.length === 1 ? "" : "s"}`);
    } catch (failure) {
      const field = failure instanceof ApiError ? failure.fields?.url?.[0] : undefined;
      setError(field ?? (failure instanceof Error ? failure.message : "Couldn't save the URL."));
    } finally {
      setSaving(false);
    }
  }

  if (!editing) {
    return (
      <div className="flex flex-wrap items-center gap-x-2">
        <p className="text-xs break-all text-zinc-600 dark:text-zinc-400">{server.url}</p>
        <Button
          ref={editRef}
          size="sm"
          variant="ghost"
          aria-label={`Change the URL of ${server.slug}`}
          onClick={() => setEditing(true)}
        >
          Change URL
        </Button>
      </div>
    );
  }
  return (
    <form
      onSubmit={(event) => void submit(event)}
      aria-label={`URL of ${server.slug}`}
      onKeyDown={(event) => {
        if (event.key === "Escape" && !saving) close();
      }}
    >
      <Field id={inputId} label="URL" labelSize="xs" errors={error} announceErrors>
        {(control) => (
          <div className="flex flex-wrap items-center gap-2">
            <input
              {...control}
              ref={inputRef}
              type="url"
              inputMode="url"
              spellCheck={false}
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              disabled={saving}
              className={controlClassName("min-w-0 flex-1 sm:min-w-80")}
            />
            <Button type="submit" size="sm" variant="primary" disabled={saving || !url.trim()}>
              {saving ? "Saving…" : "Save URL"}
            </Button>
            <Button size="sm" variant="ghost" disabled={saving} onClick={close}>
              Cancel
            </Button>
          </div>
        )}
      </Field>
    </form>
  );
}
