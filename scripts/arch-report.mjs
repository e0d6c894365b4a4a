// Architecture figures in one place (`npm run arch:report`): how far the code is from the rules
// in .dependency-cruiser.cjs and docs/architecture.md. Reads the dependency graph from
// dependency-cruiser and unused exports from knip; prints counts, and the offenders under each.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const require = createRequire(import.meta.url);
const config = require(path.join(ROOT, ".dependency-cruiser.cjs"));
const CHAT_ROUTE = "app/api/chat/route.ts";
const LINE_LIMIT = 400;
const verbose = process.argv.includes("--verbose");

function run(command, args) {
  const result = spawnSync(path.join(ROOT, "node_modules/.bin", command), args, {
    cwd: ROOT,
    encoding: "utf8",
    maxBuffer: 1024 * 1024 * 1024,
  });
  // Both tools exit non-zero when they find something; only missing output is a failure.
  if (!result.stdout) throw new Error(`${command} printed nothing: ${result.stderr}`);
  return JSON.parse(result.stdout);
}

function ruleRegexes(name) {
  const rule = config.forbidden.find((candidate) => candidate.name === name);
  if (!rule) throw new Error(`no rule ${name} in .dependency-cruiser.cjs`);
  return [rule.to.path].flat().map((pattern) => new RegExp(pattern));
}

function gitFiles() {
  const result = spawnSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], {
    cwd: ROOT,
    encoding: "utf8",
  });
  return result.stdout.split("\n").filter((file) => /\.(ts|tsx|mjs|cjs|js)$/.test(file));
}

/** Lines of the repository's own source matching `pattern`, as `file:line`. */
function grep(pattern, files) {
  return files.flatMap((file) =>
    readFileSync(path.join(ROOT, file), "utf8")
      .split("\n")
      .flatMap((line, index) =>
        [...line.matchAll(pattern)].map(() => `${file}:${index + 1}: ${line.trim()}`),
      ),
  );
}

/** Distinct cycles dependency-cruiser reported, each written from its smallest module. */
function distinctCycles(modules) {
  const cycles = new Set();
  for (const module of modules) {
    for (const dependency of module.dependencies) {
      if (!dependency.circular || !dependency.cycle) continue;
      const names = [module.source, ...dependency.cycle.map((step) => step.name)].slice(0, -1);
      const start = names.indexOf([...names].sort()[0]);
      cycles.add([...names.slice(start), ...names.slice(0, start)].join(" → "));
    }
  }
  return [...cycles];
}

function reachableFrom(start, modules) {
  const bySource = new Map(modules.map((module) => [module.source, module]));
  const seen = new Set([start]);
  const queue = [start];
  while (queue.length > 0) {
    const module = bySource.get(queue.shift());
    for (const dependency of module?.dependencies ?? []) {
      if (seen.has(dependency.resolved)) continue;
      seen.add(dependency.resolved);
      queue.push(dependency.resolved);
    }
  }
  seen.delete(start);
  return [...seen];
}

const graph = run("depcruise", [
  ".",
  "--config",
  ".dependency-cruiser.cjs",
  "--output-type",
  "json",
]);
const modules = graph.modules;
const edges = modules.flatMap((module) =>
  module.dependencies.map((dependency) => ({ from: module.source, to: dependency.resolved })),
);
const edgeList = (list) => list.map(({ from, to }) => `${from} → ${to}`);

const engine = ruleRegexes("context-never-on-engine");
const dbToLib = edges.filter(({ from, to }) => from.startsWith("db/") && to.startsWith("lib/"));
const contextToEngine = edges.filter(
  ({ from, to }) => from.startsWith("lib/context/") && engine.some((regex) => regex.test(to)),
);
const cycles = distinctCycles(modules);
const inCycles = [...new Set(cycles.flatMap((cycle) => cycle.split(" → ")))].sort();
const reachable = reachableFrom(CHAT_ROUTE, modules);
const ownReachable = reachable.filter((source) => !source.startsWith("node_modules/"));

const knip = run("knip", ["--reporter", "json", "--no-progress"]);
const unusedExports = knip.issues.flatMap((issue) =>
  [...issue.exports, ...issue.nsExports].map((entry) => `${issue.file}: ${entry.name}`),
);
const unusedTypes = knip.issues.flatMap((issue) =>
  [...issue.types, ...issue.nsTypes].map((entry) => `${issue.file}: ${entry.name}`),
);
const unusedFiles = knip.issues.flatMap((issue) => issue.files.map((entry) => entry.name));
for (const list of [unusedExports, unusedTypes, unusedFiles]) list.sort();

const files = gitFiles();
const sources = files.filter((file) => /^(app|components|lib|db|core)\//.test(file));
const txTypes = grep(/^\s*(export\s+)?(type (Tx|Executor)\b\s*=|interface Executor\b)/g, sources);
// Ownership written out by hand: an equality on a table's owner column (`eq(threads.userId, …)`).
const ownership = grep(/\beq\(\s*\w+\.(userId|ownerId)\b/g, sources);
const alerts = grep(
  /role=["{]["']?alert\b/g,
  sources.filter((file) => !file.startsWith("components/ui/")),
);
const isTest = (file) =>
  /\.(test|spec|bench)\.[cm]?[jt]sx?$/.test(file) || /^(tests|e2e)\//.test(file);
const isGenerated = (file) => file === "db/schema.ts" || file.startsWith("db/migrations/");
const longFiles = files
  .filter((file) => !isTest(file) && !isGenerated(file))
  .map((file) => ({ file, lines: readFileSync(path.join(ROOT, file), "utf8").split("\n").length }))
  .filter(({ lines }) => lines > LINE_LIMIT)
  .sort((a, b) => b.lines - a.lines)
  .map(({ file, lines }) => `${file} (${lines})`);

const figures = [
  ["db → lib imports", edgeList(dbToLib)],
  ["lib/context → run engine imports", edgeList(contextToEngine)],
  ["import cycles (distinct, type-only imports included)", cycles],
  ["modules in an import cycle", inCycles],
  ["Tx / Executor type definitions", txTypes],
  ["written-out ownership conditions (eq(<table>.userId|ownerId, …))", ownership],
  ["unused exports (knip)", unusedExports],
  ["unused exported types (knip)", unusedTypes],
  ["unused files (knip)", unusedFiles],
  ['hand-written role="alert" outside components/ui', alerts],
  [`modules reachable from ${CHAT_ROUTE} (own source files)`, ownReachable],
  [`modules reachable from ${CHAT_ROUTE} (with npm packages and Node modules)`, reachable],
  [`source files over ${LINE_LIMIT} lines (tests, db/schema.ts, migrations aside)`, longFiles],
];

const width = Math.max(...figures.map(([label]) => label.length));
for (const [label, items] of figures) {
  console.log(`${label.padEnd(width)}  ${String(items.length).padStart(5)}`);
  const shown = verbose || items.length <= 12 ? items : [...items.slice(0, 10), "…"];
  if (label.startsWith("modules reachable") && !verbose) continue;
  for (const item of shown) console.log(`    ${item}`);
}
if (!verbose) console.log("\n(--verbose lists every item)");
