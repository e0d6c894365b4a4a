import type { NextConfig } from "next";
import { exitOnInvalidEnv, serverEnv } from "./core/env";
import { securityHeaderRules } from "./lib/http/security-headers";

// `next dev`, `next build` and `next start` all evaluate this file first (after loading .env
// files): a malformed variable stops them here, naming it, instead of surfacing on some request.
exitOnInvalidEnv();

const config: NextConfig = {
  // `.next/standalone`: a server.js and only the files it needs, which the container image runs
  // (Dockerfile; CI's scripts/standalone-smoke.mjs serves a chat turn through it).
  output: "standalone",
  // Files read from disk at run time rather than imported. The SQL migrations the server applies
  // at start-up (db/migrate.ts reads them relative to the working folder, which server.js sets
  // to its own) are invisible to the trace. PGlite's WASM and data files are found today through
  // their `new URL(…, import.meta.url)`; listed too, so a change in how PGlite loads them cannot
  // silently drop them. Any route may be the first to open the database, so all routes get them.
  // CI's scripts/standalone-smoke.mjs starts the output on a fresh folder to prove it complete.
  outputFileTracingIncludes: {
    "/**": ["./db/migrations/**/*", "./node_modules/@electric-sql/pglite/dist/*.{wasm,data}"],
  },
  // PGlite ships WASM and data files that bundling breaks at run time.
  serverExternalPackages: ["@electric-sql/pglite"],
  poweredByHeader: false,
  // `next dev` serves its own resources (/_next/*, the /_next/hmr socket) only to pages loaded from
  // localhost unless told otherwise, so a page opened at http://127.0.0.1:3000 never hydrated.
  // The hosts the app itself trusts with no configuration, and BATON_ALLOWED_HOSTS (names only,
  // without a port), are trusted here too. Production servers never read this setting.
  allowedDevOrigins: ["127.0.0.1", ...devHostNames(serverEnv().BATON_ALLOWED_HOSTS ?? [])],
  // Lets parallel builds (e.g. two e2e runs on one machine) use separate output folders. A build
  // tool's setting, not the app's, so it is read here rather than in core/env.ts.
  distDir: process.env.NEXT_DIST_DIR ?? ".next",
  // Security headers on every response; pages get their nonce CSP from proxy.ts.
  headers: async () => securityHeaderRules(),
  experimental: {
    // Next buffers a request body for proxy.ts (up to this size) before the page sees it. The
    // proxy runs on pages only, and pages take no body (there are no server actions), so a big
    // POST to a page must not cost the server megabytes.
    proxyClientMaxBodySize: "64kb",
  },
};

/** `baton.lan:3000` → `baton.lan`: Next matches the page's host name, never its port. */
function devHostNames(hosts: string[]): string[] {
  return hosts.map((host) => host.replace(/:(\d+|\*)$/, "")).filter(Boolean);
}

export default config;
