// One server per PGlite folder: a second server on a live folder exits non-zero and says which
// folder is taken, the first keeps serving and writing, and after the first is SIGKILLed (its
// lock file left behind) a new server takes the folder over and finds everything it wrote.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { type APIRequestContext, expect, test } from "@playwright/test";
import {
  freshStore,
  type ServerProcess,
  type ServerStore,
  spawnServer,
  startServer,
} from "./support/server-process";

test.skip(
  Boolean(process.env.DATABASE_URL),
  "PGlite only: on Postgres several servers share one database by design",
);

async function writeHandoff(api: APIRequestContext, server: ServerProcess, key: string) {
  const res = await api.post(`${server.url}/api/handoffs`, {
    headers: { origin: server.url },
    data: {
      key,
      artifact: { goal: `Remember ${key}`, state_summary: "Written for the lock test" },
    },
  });
  expect(res.status(), await res.text()).toBe(201);
}

test("a second server on a live PGlite folder is refused; one started after a SIGKILL takes over @own-server", async ({
  playwright,
}) => {
  test.setTimeout(300_000);
  const store: ServerStore = await freshStore({ engine: "pglite" });
  const folder = path.join(store.dataDir, "pglite");
  const lockFile = path.join(folder, "baton-server.lock");
  const holder = () => JSON.parse(readFileSync(lockFile, "utf8")) as { pid: number };
  const servers: ServerProcess[] = [];
  // One client throughout: cookies are per host, not per port, so the guest carries over.
  const api = await playwright.request.newContext();
  try {
    const first = await startServer({ env: store.env });
    servers.push(first);
    expect(holder().pid).toBe(first.pid); // the lock is the server's own, the one a kill hits
    const guest = await api.post(`${first.url}/api/auth/sign-in/anonymous`, {
      headers: { origin: first.url },
      data: {},
    });
    expect(guest.status()).toBe(200);
    await writeHandoff(api, first, "before-second-server");

    const second = await spawnServer({ env: store.env });
    servers.push(second);
    const exit = await second.waitForExit(90_000);
    expect(exit.code, second.output()).toBe(1);
    expect(second.output()).toContain(`is using the data folder ${folder}.`);
    expect(second.output()).toContain(`pid ${first.pid}`);

    expect((await api.get(`${first.url}/api/health`)).status()).toBe(200);
    await writeHandoff(api, first, "after-second-server");

    first.kill("SIGKILL");
    expect((await first.waitForExit()).signal).toBe("SIGKILL");
    expect(holder().pid).toBe(first.pid); // left behind by the killed server

    const third = await startServer({ env: store.env });
    servers.push(third);
    expect(holder().pid).toBe(third.pid);
    const list = await api.get(`${third.url}/api/handoffs`);
    expect(list.status()).toBe(200);
    const keys = ((await list.json()) as { handoffs: { key: string }[] }).handoffs.map(
      (h) => h.key,
    );
    expect(keys.sort()).toEqual(["after-second-server", "before-second-server"]);

    await third.stop();
    expect(third.signal ?? third.exitCode).not.toBe("SIGKILL");
    expect(existsSync(lockFile)).toBe(false); // a clean shutdown removes the lock
  } finally {
    await api.dispose();
    for (const server of servers) await server.stop();
    await store.dispose();
  }
});
