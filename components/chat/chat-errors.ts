// How the chat view tells the sidebar a thread changed, and reads a failed request's message.
export { readableError } from "@/lib/api/client";

export function notifyThreadsChanged() {
  window.dispatchEvent(new CustomEvent("baton:threads-changed"));
}
