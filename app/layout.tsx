import type { Metadata } from "next";
import { Toaster } from "sonner";
import "./globals.css";

export const metadata: Metadata = {
  title: "Baton",
  description: "Chat for long-running AI work that never hits the context wall.",
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body>
        {children}
        {/* Bottom right, lifted clear of the composer; not over the header, whose buttons it would cover. */}
        <Toaster position="bottom-right" offset={{ bottom: 96, right: 16 }} closeButton />
      </body>
    </html>
  );
}
