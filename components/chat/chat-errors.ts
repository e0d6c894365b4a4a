// How the chat view reads the server's refusals, and tells the sidebar a thread changed.

export function notifyThreadsChanged() {
  window.dispatchEvent(new CustomEvent("baton:threads-changed"));
}

/** The `{error: {code, message}}` body of a refused request, or a status line without one. */
export async function errorOf(response: Response): Promise<{ code?: string; message: string }> {
  const body = (await response.json().catch(() => null)) as {
    error?: { code?: string; message?: string };
  } | null;
  return {
    code: body?.error?.code,
    message: body?.error?.message ?? `The server answered ${response.status}.`,
  };
}

/** The message a failed chat request shows: the server's own words when it sent a JSON error. */
export function readableError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  try {
    const parsed = JSON.parse(message) as { error?: { message?: string } };
    if (parsed.error?.message) return parsed.error.message;
  } catch {
    // Not a JSON error body: fall through.
  }
  return message || "Something went wrong.";
}
