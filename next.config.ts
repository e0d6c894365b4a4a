import type { NextConfig } from "next";
import { exitOnInvalidEnv } from "./lib/env";

// `next dev`, `next build` and `next start` all evaluate this file first (after loading .env
// files): a malformed variable stops them here, naming it, instead of surfacing on some request.
exitOnInvalidEnv();

const config: NextConfig = {
  // PGlite ships WASM and data files that bundling breaks at run time.
  serverExternalPackages: ["@electric-sql/pglite"],
  poweredByHeader: false,
  // Lets parallel builds (e.g. two e2e runs on one machine) use separate output folders. A build
  // tool's setting, not the app's, so it is read here rather than in lib/env.ts.
  distDir: process.env.NEXT_DIST_DIR ?? ".next",
};

export default config;
