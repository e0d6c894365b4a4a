// How the chat view tells the sidebar a thread changed, and reads a failed request's message.
export { readableError } from "@/lib/api/client";

export function notifyThreadsChanged() {
  window.dispatchEvent(new CustomEvent("baton:threads-changed"));
}

/** What the sidebar shows of a thread whose first message is on its way to the server. */
export interface StartedThread {
  id: string;
  title: string;
}

/** A new thread's first message was sent: the sidebar lists it at once, before the server does. */
export function notifyThreadStarted(thread: StartedThread) {
  window.dispatchEvent(new CustomEvent<StartedThread>("baton:thread-started", { detail: thread }));
}
