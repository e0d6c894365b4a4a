import { headers } from "next/headers";
import { GuestGate } from "@/components/sidebar/guest-gate";
import { Sidebar } from "@/components/sidebar/sidebar";
import { currentActor } from "@/lib/auth/server";

export const dynamic = "force-dynamic";

export default async function ChatLayout({ children }: { children: React.ReactNode }) {
  const actor = await currentActor(await headers());
  if (!actor) return <GuestGate />;
  return (
    <div className="flex h-full">
      <Sidebar actor={{ isAnonymous: actor.isAnonymous, email: actor.email, name: actor.name }} />
      <main className="flex min-w-0 flex-1 flex-col">{children}</main>
    </div>
  );
}
