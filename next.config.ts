import type { NextConfig } from "next";

const config: NextConfig = {
  // PGlite ships WASM and data files that bundling breaks at run time.
  serverExternalPackages: ["@electric-sql/pglite"],
  poweredByHeader: false,
};

export default config;
