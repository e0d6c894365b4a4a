import type { Metadata } from "next";
import { headers } from "next/headers";
import { connection } from "next/server";
import { Toaster } from "sonner";
import { ZodWithoutEval } from "@/components/security/zod-without-eval";
import { BOOT_SCRIPT } from "@/lib/theme/theme";
import "./globals.css";

export const metadata: Metadata = {
  title: "Baton",
  description: "Chat for long-running AI work that never hits the context wall.",
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Every page renders per request: Next puts the request's CSP nonce (set by proxy.ts) on its
  // script tags while rendering, and a page prerendered at build time would have none.
  await connection();
  const nonce = nonceOf((await headers()).get("content-security-policy"));
  return (
    // The before-paint script sets the theme class on <html> before React hydrates it.
    <html lang="en" suppressHydrationWarning>
      <head>
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a constant script, allowed by this request's CSP nonce */}
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: BOOT_SCRIPT }} />
      </head>
      <body>
        <ZodWithoutEval />
        {children}
        {/*
          Bottom left, over the sidebar's foot and no wider than the sidebar, so a toast never
          covers the message column or the composer; on a phone (no sidebar) above the composer.
        */}
        <Toaster
          position="bottom-left"
          offset={{ bottom: 12, left: 12 }}
          mobileOffset={{ bottom: 96, left: 12, right: 12 }}
          style={{ "--width": "232px" } as React.CSSProperties}
          closeButton
        />
      </body>
    </html>
  );
}

/** The script nonce proxy.ts put in this request's Content-Security-Policy. */
function nonceOf(policy: string | null): string | undefined {
  return policy?.match(/'nonce-([^']+)'/)?.[1];
}
