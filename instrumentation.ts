// Start-up hook. The Node-only work sits behind the NEXT_RUNTIME check (which the bundler
// resolves at build time) so the edge build never sees Node modules.
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { prepareDatabase } = await import("./db/startup");
    await prepareDatabase();
  }
}
