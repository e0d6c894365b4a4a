import type { Metadata } from "next";
import { connection } from "next/server";
import { Toaster } from "sonner";
import { ZodWithoutEval } from "@/components/security/zod-without-eval";
import "./globals.css";

export const metadata: Metadata = {
  title: "Baton",
  description: "Chat for long-running AI work that never hits the context wall.",
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Every page renders per request: Next puts the request's CSP nonce (set by proxy.ts) on its
  // script tags while rendering, and a page prerendered at build time would have none.
  await connection();
  return (
    <html lang="en">
      <body>
        <ZodWithoutEval />
        {children}
        {/* Bottom right, lifted clear of the composer; not over the header, whose buttons it would cover. */}
        <Toaster position="bottom-right" offset={{ bottom: 96, right: 16 }} closeButton />
      </body>
    </html>
  );
}
