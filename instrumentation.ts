// Start-up hook. The Node-only work sits behind the NEXT_RUNTIME check (which the bundler
// resolves at build time) so the edge build never sees Node modules. NEXT_RUNTIME is the only
// variable read outside core/env.ts: it is a constant Next writes into each bundle, not a
// setting, and reading it through a function would keep the Node-only import in the edge build.
// The environment is validated when next.config.ts is loaded (`next dev`, `next build`, `next
// start`), and again here: the standalone server (`node .next/standalone/server.js`, what the
// image runs) never loads next.config.ts.
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { exitOnInvalidEnv } = await import("./core/env");
    exitOnInvalidEnv();
    // Whatever Next.js or a library prints goes through the same filter as Baton's own log.
    const { guardConsole, log } = await import("./core/log");
    guardConsole();
    try {
      const { installFrontDoor } = await import("./lib/http/front-door");
      installFrontDoor();
      const { prepareDatabase } = await import("./db/startup");
      await prepareDatabase();
      // What a crashed server left behind (resets, runs, unanswered messages) is taken over now.
      const { getDatabase } = await import("./db/client");
      const { startRecovery } = await import("./lib/runs/recovery-start");
      await startRecovery(getDatabase().kind);
      // A compatible server's context window is asked now, in the background (lib/ai/server-windows.ts).
      const { listConfiguredModels } = await import("./lib/ai/providers");
      const { learnServerWindow } = await import("./lib/ai/server-windows");
      for (const model of listConfiguredModels()) {
        if (model.provider === "compatible")
          void learnServerWindow(model.id.slice("compatible:".length));
      }
    } catch (error) {
      // Next would keep serving, every request a 500, with the database never migrated: exit
      // instead, so a supervisor (compose's restart policy, systemd) starts it again.
      log.error("Baton cannot start: preparing the database failed", error);
      process.exit(1);
    }
  }
}
