// Start-up hook. The Node-only work sits behind the NEXT_RUNTIME check (which the bundler
// resolves at build time) so the edge build never sees Node modules. NEXT_RUNTIME is the only
// variable read outside lib/env.ts: it is a constant Next writes into each bundle, not a
// setting, and reading it through a function would keep the Node-only import in the edge build.
// The environment itself is validated earlier, when next.config.ts is loaded.
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    // Whatever Next.js or a library prints goes through the same filter as Baton's own log.
    const { guardConsole } = await import("./lib/log");
    guardConsole();
    const { installFrontDoor } = await import("./lib/http/front-door");
    installFrontDoor();
    const { prepareDatabase } = await import("./db/startup");
    await prepareDatabase();
    // What a crashed server left behind (resets, runs, unanswered messages) is taken over now.
    const { getDatabase } = await import("./db/client");
    const { startRecovery } = await import("./lib/agents/recovery");
    await startRecovery(getDatabase().kind);
  }
}
