"use client";
// The form that adds an outside MCP server: its slug (the name tools are known by), its URL and
// an optional bearer token. The API checks every field; its field errors are shown next to the
// fields and the first one is focused.
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { controlClassName, Field, FormErrorSummary } from "@/components/ui/field";
import { ApiError } from "@/lib/api/client";
import { addToolServer, type ToolServerEntry } from "./tool-server-api";

type FieldName = "slug" | "url" | "token";
const FIELDS: readonly FieldName[] = ["slug", "url", "token"];

interface Errors {
  byField: Partial<Record<FieldName, string[]>>;
  form: string[];
}
const NO_ERRORS: Errors = { byField: {}, form: [] };

/** A refusal's field errors on the form's fields; the rest (and a bare message) above them. */
function errorsOf(error: unknown): Errors {
  const next: Errors = { byField: {}, form: [] };
  const fields = error instanceof ApiError ? (error.fields ?? {}) : {};
  for (const [field, messages] of Object.entries(fields)) {
    const name = FIELDS.find((f) => f === field);
    if (name) next.byField[name] = messages;
    else next.form.push(...messages);
  }
  if (Object.keys(next.byField).length === 0 && next.form.length === 0) {
    next.form.push(error instanceof Error ? error.message : "Couldn't add the tool server.");
  }
  return next;
}

export function AddToolServer({ onAdded }: { onAdded: (server: ToolServerEntry) => void }) {
  const [values, setValues] = useState({ slug: "", url: "", token: "" });
  const [errors, setErrors] = useState<Errors>(NO_ERRORS);
  const [attempt, setAttempt] = useState(0);
  const [adding, setAdding] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const summaryRef = useRef<HTMLDivElement>(null);
  const base = useId();
  const idOf = (field: FieldName) => `${base}-${field}`;

  // After a refused add, focus the first field in error (or the summary when none shows one).
  useEffect(() => {
    if (attempt === 0) return;
    const first = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    (first ?? summaryRef.current)?.focus();
  }, [attempt]);

  const set = (field: FieldName, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) =>
      e.byField[field] ? { ...e, byField: { ...e.byField, [field]: undefined } } : e,
    );
  };

  const valueProps = (field: FieldName) => ({
    value: values[field],
    onChange: (e: { target: { value: string } }) => set(field, e.target.value),
  });

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setAdding(true);
    try {
      const token = values.token.trim();
      const server = await addToolServer({
        slug: values.slug.trim(),
        url: values.url.trim(),
        ...(token ? { token } : {}),
      });
      setValues({ slug: "", url: "", token: "" });
      setErrors(NO_ERRORS);
      onAdded(server);
    } catch (error) {
      setErrors(errorsOf(error));
      setAttempt((n) => n + 1);
    } finally {
      setAdding(false);
    }
  }

  return (
    <form
      ref={formRef}
      onSubmit={submit}
      noValidate
      aria-label="Add a tool server"
      className="space-y-3 rounded-lg border border-zinc-200 p-4 dark:border-zinc-800"
    >
      <h3 className="text-sm font-semibold">Add a tool server</h3>
      <FormErrorSummary messages={errors.form} ref={summaryRef} />
      <fieldset disabled={adding} className="grid gap-3 sm:grid-cols-[12rem_1fr]">
        <Field
          id={idOf("slug")}
          label="Name"
          description="Up to 32 lowercase letters, digits and hyphens; its tools reach the model as mcp__<name>__<tool>."
          errors={errors.byField.slug}
        >
          {(control) => (
            <input
              {...control}
              {...valueProps("slug")}
              required
              maxLength={32}
              autoCapitalize="none"
              autoComplete="off"
              spellCheck={false}
              placeholder="search"
              className={controlClassName("font-mono")}
            />
          )}
        </Field>
        <Field
          id={idOf("url")}
          label="URL"
          description="The server's streamable HTTP endpoint."
          errors={errors.byField.url}
        >
          {(control) => (
            <input
              {...control}
              {...valueProps("url")}
              type="url"
              inputMode="url"
              required
              autoCapitalize="none"
              autoComplete="off"
              spellCheck={false}
              placeholder="https://tools.example.com/mcp"
              className={controlClassName()}
            />
          )}
        </Field>
        <Field
          id={idOf("token")}
          label="Token (optional)"
          description="Sent as a bearer token. Stored sealed and never shown again."
          errors={errors.byField.token}
          className="sm:col-span-2"
        >
          {(control) => (
            <input
              {...control}
              {...valueProps("token")}
              type="password"
              autoComplete="new-password"
              spellCheck={false}
              className={controlClassName("sm:max-w-sm")}
            />
          )}
        </Field>
      </fieldset>
      <Button
        type="submit"
        variant="primary"
        disabled={adding || values.slug.trim() === "" || values.url.trim() === ""}
      >
        {adding ? "Adding…" : "Add server"}
      </Button>
    </form>
  );
}
