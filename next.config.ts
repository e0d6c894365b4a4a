import type { NextConfig } from "next";

const config: NextConfig = {
  // PGlite ships WASM and data files that bundling breaks at run time.
  serverExternalPackages: ["@electric-sql/pglite"],
  poweredByHeader: false,
  // Lets parallel builds (e.g. two e2e runs on one machine) use separate output folders.
  distDir: process.env.NEXT_DIST_DIR ?? ".next",
};

export default config;
