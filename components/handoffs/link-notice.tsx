"use client";
// Tells a user, once, that signing in kept a guest handoff under a new key because the account
// already had one with that key. Once the toast is up, the notices are marked seen, so the next
// page load does not show them again; the toast stays until closed rather than timing out unread.
import { useEffect } from "react";
import { toast } from "sonner";

export interface LinkNoticeItem {
  id: string;
  key: string;
  keptAs: string;
}

/** Keys can be 128 characters with no spaces: let them break anywhere on a narrow screen. */
function Key({ children }: { children: string }) {
  return <code className="font-mono [overflow-wrap:anywhere]">{children}</code>;
}

function message(notices: LinkNoticeItem[]) {
  const [only] = notices;
  if (notices.length === 1 && only) {
    return (
      <p className="[overflow-wrap:anywhere]">
        Your guest handoff <Key>{only.key}</Key> was kept as <Key>{only.keptAs}</Key> because your
        account already had one with that key.
      </p>
    );
  }
  return (
    <div className="[overflow-wrap:anywhere]">
      <p>Your account already had handoffs with these keys, so your guest ones were kept as:</p>
      <ul className="mt-1 list-disc pl-5">
        {notices.map((n) => (
          <li key={n.id}>
            <Key>{n.key}</Key> → <Key>{n.keptAs}</Key>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function LinkNotice({ notices }: { notices: LinkNoticeItem[] }) {
  useEffect(() => {
    if (notices.length === 0) return;
    // The id is the first notice's, so a second run of this effect (a re-render, React's
    // development double-invoke) updates the same toast instead of stacking another.
    toast(message(notices), {
      id: `link-notice-${notices[0]?.id}`,
      duration: Number.POSITIVE_INFINITY,
    });
    // If this fails the notice simply shows again on the next page load.
    void fetch("/api/auth/link-notices/seen", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ids: notices.map((n) => n.id) }),
    }).catch(() => {});
  }, [notices]);
  return null;
}
