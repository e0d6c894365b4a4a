// Baton's layering rules, checked by `npm run lint:deps` (part of `npm test`).
// Violations that predate a rule are listed in .dependency-cruiser-known-violations.json;
// anything new fails. See docs/architecture.md for the layers these rules keep apart.
const { builtinModules } = require("node:module");

// Node's own modules, bare or with the node: prefix, as dependency-cruiser names them.
const nodeCore = `^(node:)?(${builtinModules
  .filter((name) => !name.startsWith("_"))
  .map((name) => name.replace(/[/]/g, "\\/"))
  .join("|")})$`;

// The run engine.
const runEngine = ["^lib/runs/"];

// What must never end up in a browser bundle.
const serverOnly = ["^node_modules/server-only/", "^db/", "^lib/auth/server[^/]*$", nodeCore];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "db-is-the-ground-floor",
      severity: "error",
      comment:
        "db/ only reads and writes: it depends on db/, core/ and npm packages, never on lib/, " +
        "components/ or app/. Move the decision (redaction, rendering, limits) to the caller, " +
        "or the shared type or constant down to core/ or beside the table.",
      from: { path: "^db/" },
      to: {
        pathNot: ["^(db|core)/", "^node_modules/"],
        dependencyTypesNot: ["core"],
      },
    },
    {
      name: "context-never-on-engine",
      severity: "error",
      comment:
        "lib/context/ is a service the run engine calls: it returns outcomes and never imports " +
        "the engine (lib/runs/). Return what happened instead.",
      from: { path: "^lib/context/" },
      to: { path: runEngine },
    },
    {
      name: "components-client-safe",
      severity: "error",
      comment:
        "components/ ships to the browser: no import, direct or through other modules, may reach " +
        "server-only, db/, server auth (lib/auth/server*) or a Node core module. Pass the data in " +
        "as props, or call the API through lib/api/client.ts.",
      from: { path: "^components/" },
      to: { path: serverOnly, reachable: true },
    },
    {
      name: "components-no-node-core",
      severity: "error",
      comment: "components/ ships to the browser, where Node's core modules do not exist.",
      from: { path: "^components/" },
      to: { dependencyTypes: ["core"] },
    },
    {
      name: "no-circular",
      severity: "error",
      comment:
        "This dependency is part of a circle of imports (type-only imports count). Two owners " +
        "are fighting over one decision: move the shared part down, or return an outcome.",
      from: { path: "^(app|components|lib|db|core)/" },
      to: { circular: true },
    },
    {
      name: "not-to-unresolvable",
      severity: "error",
      comment:
        "This module imports something that cannot be found on disk: a moved file, a typo, or " +
        "a package missing from package.json.",
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: "^node_modules/" },
    exclude: {
      path: "^(\\.[^/]+|test-results|playwright-report|blob-report|db/migrations)/",
    },
    // node_modules may be a symlink (a shared install); keep its paths under node_modules/
    // so doNotFollow and the rules below see packages where they expect them.
    preserveSymlinks: true,
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      mainFields: ["module", "main", "types", "typings"],
    },
    skipAnalysisNotInRules: true,
  },
};
