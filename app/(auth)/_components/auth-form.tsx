"use client";
// The sign-up and sign-in form. Lives beside its routes because it has no other user. When a
// guest signs up or in, Better Auth links the guest account and the server moves its threads.
import Link from "next/link";
import { useRouter } from "next/navigation";
import { type FormEvent, useRef, useState } from "react";
import { z } from "zod";
import { Alert } from "@/components/ui/alert";
import { controlClassName, Field } from "@/components/ui/field";
import { authClient } from "@/lib/auth/client";

type Mode = "sign-up" | "sign-in";
type FieldName = "email" | "password";
type FieldErrors = Partial<Record<FieldName, string>>;

const MIN_PASSWORD_LENGTH = 8;

const COPY = {
  "sign-up": {
    heading: "Create your account",
    intro: "Keep your conversations and reach them from any browser.",
    submit: "Sign up",
    pending: "Signing up…",
    switchPrompt: "Already have an account?",
    switchLabel: "Sign in",
    switchHref: "/sign-in",
  },
  "sign-in": {
    heading: "Sign in to Baton",
    intro: "Chats you started as a guest in this browser move to your account.",
    submit: "Sign in",
    pending: "Signing in…",
    switchPrompt: "New to Baton?",
    switchLabel: "Sign up",
    switchHref: "/sign-up",
  },
} as const;

const emailSchema = z.email();

function validate(mode: Mode, email: string, password: string): FieldErrors {
  const errors: FieldErrors = {};
  if (!email) errors.email = "Enter your email.";
  else if (!emailSchema.safeParse(email).success) errors.email = "Enter a valid email address.";
  if (!password) errors.password = "Enter your password.";
  // Sign-in leaves length to the server, so an account made under other rules can still sign in.
  else if (mode === "sign-up" && password.length < MIN_PASSWORD_LENGTH) {
    errors.password = `Use at least ${MIN_PASSWORD_LENGTH} characters.`;
  }
  return errors;
}

/** Better Auth's messages are written for developers; these are the ones users meet. */
function describeAuthError(
  mode: Mode,
  error: { code?: string; message?: string; status: number; statusText: string },
): string {
  if (error.code?.startsWith("USER_ALREADY_EXISTS")) {
    return "An account with this email already exists. Sign in instead.";
  }
  if (error.code === "INVALID_EMAIL_OR_PASSWORD") return "Wrong email or password.";
  if (error.status === 429) return "Too many attempts. Wait a minute and try again.";
  if (error.message) return error.message;
  return mode === "sign-up" ? "Couldn't create your account." : "Couldn't sign you in.";
}

export function AuthForm({ mode }: { mode: Mode }) {
  const copy = COPY[mode];
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  function clearFieldError(field: FieldName) {
    if (fieldErrors[field]) setFieldErrors((current) => ({ ...current, [field]: undefined }));
  }

  async function submitCredentials(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const form = new FormData(event.currentTarget);
    const name = String(form.get("name") ?? "").trim();
    const email = String(form.get("email") ?? "").trim();
    const password = String(form.get("password") ?? "");

    const errors = validate(mode, email, password);
    setFieldErrors(errors);
    setServerError(null);
    if (errors.email || errors.password) {
      (errors.email ? emailRef : passwordRef).current?.focus();
      return;
    }

    setPending(true);
    try {
      const { error } =
        mode === "sign-up"
          ? await authClient.signUp.email({
              email,
              password,
              name: name || (email.split("@")[0] ?? email),
            })
          : await authClient.signIn.email({ email, password });
      if (error) {
        setServerError(describeAuthError(mode, error));
        setPending(false);
        return;
      }
      // Stay pending: the page is about to be replaced by the chat.
      router.push("/");
      router.refresh();
    } catch {
      setServerError("Couldn't reach the server. Check your connection and try again.");
      setPending(false);
    }
  }

  return (
    <div>
      <h1 className="font-semibold text-xl tracking-tight">{copy.heading}</h1>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{copy.intro}</p>

      <form noValidate onSubmit={submitCredentials} className="mt-6 space-y-4">
        {mode === "sign-up" && (
          <Field
            label={
              <>
                Name{" "}
                <span className="font-normal text-zinc-500 dark:text-zinc-400">(optional)</span>
              </>
            }
            description="Defaults to the part of your email before the @."
          >
            {(control) => (
              <input
                {...control}
                name="name"
                type="text"
                autoComplete="name"
                maxLength={100}
                className={controlClassName()}
              />
            )}
          </Field>
        )}

        <Field label="Email" errors={fieldErrors.email}>
          {(control) => (
            <input
              {...control}
              ref={emailRef}
              name="email"
              type="email"
              autoComplete="email"
              inputMode="email"
              required
              onChange={() => clearFieldError("email")}
              className={controlClassName()}
            />
          )}
        </Field>

        <Field
          label="Password"
          description={
            mode === "sign-up" ? `At least ${MIN_PASSWORD_LENGTH} characters.` : undefined
          }
          errors={fieldErrors.password}
        >
          {(control) => (
            <input
              {...control}
              ref={passwordRef}
              name="password"
              type="password"
              autoComplete={mode === "sign-up" ? "new-password" : "current-password"}
              required
              minLength={mode === "sign-up" ? MIN_PASSWORD_LENGTH : undefined}
              onChange={() => clearFieldError("password")}
              className={controlClassName()}
            />
          )}
        </Field>

        {serverError && <Alert appearance="panel">{serverError}</Alert>}

        <button
          type="submit"
          disabled={pending}
          className="w-full rounded-md bg-indigo-600 px-3 py-2 text-sm font-medium text-white shadow-xs hover:bg-indigo-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 disabled:cursor-not-allowed disabled:opacity-60"
        >
          {pending ? copy.pending : copy.submit}
        </button>
      </form>

      <div className="mt-6 space-y-2 text-center text-sm text-zinc-600 dark:text-zinc-400">
        <p>
          {copy.switchPrompt}{" "}
          <Link
            href={copy.switchHref}
            className="font-medium text-indigo-600 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-indigo-400"
          >
            {copy.switchLabel}
          </Link>
        </p>
        <p>
          <Link
            href="/"
            className="hover:underline focus-visible:outline-2 focus-visible:outline-indigo-500"
          >
            Back to chat
          </Link>
        </p>
      </div>
    </div>
  );
}
