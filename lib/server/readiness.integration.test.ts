import net from "node:net";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * Readiness (ADR 0024) goes red when the database goes away and green when it comes back, with no
 * restart. The app reaches PostgreSQL through a TCP relay this test can cut and restore, as a
 * network fault or a database failover would.
 */

const ownerUrl = process.env.TEST_DATABASE_URL;
const databaseName = `veridesk_ready_${process.pid}_${Date.now()}`;

/** A relay to PostgreSQL: `cut()` drops every connection and refuses new ones, `restore()` listens again. */
function createRelay(target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve) => {
      server = net.createServer((client) => {
        const upstream = net.connect(target.port, target.host);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on("close", () => sockets.delete(socket));
          socket.on("error", () => socket.destroy());
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, "127.0.0.1", () => {
        port = (server!.address() as net.AddressInfo).port;
        resolve();
      });
    });
  return {
    listen,
    port: () => port,
    async cut() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server!.close(() => resolve()));
    },
    restore: listen,
  };
}

describe.runIf(ownerUrl)("readiness when the database goes away and comes back (PostgreSQL)", () => {
  const environmentBefore = { DATABASE_URL: process.env.DATABASE_URL, WATCHER_ENABLED: process.env.WATCHER_ENABLED };
  let relay: ReturnType<typeof createRelay>;
  let checkReadiness: typeof import("./readiness").checkReadiness;
  let closeDb: () => Promise<void>;

  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: ownerUrl });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    await admin(`CREATE DATABASE "${databaseName}"`);
    const target = new URL(ownerUrl!);
    relay = createRelay({ host: target.hostname, port: Number(target.port || 5432) });
    await relay.listen();
    const viaRelay = new URL(ownerUrl!);
    viaRelay.host = `127.0.0.1:${relay.port()}`;
    viaRelay.pathname = `/${databaseName}`;
    // Read by lib/env at its first use, below: this file's modules are its own (Vitest isolates
    // files), but the environment is the worker's, so afterAll puts it back.
    process.env.DATABASE_URL = viaRelay.toString();
    process.env.WATCHER_ENABLED = "false";
    ({ checkReadiness } = await import("./readiness"));
    ({ closeDb } = await import("@/lib/db/client"));
  }, 60_000);

  afterAll(async () => {
    for (const [name, value] of Object.entries(environmentBefore)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await closeDb?.();
    await relay?.cut().catch(() => undefined);
    // Imported here, not above: the kit loads lib modules that read the settings once, and this
    // file sets DATABASE_URL and WATCHER_ENABLED before the app's modules first read them.
    const { dropScratchDatabase } = await import("@/test/kit/database");
    await dropScratchDatabase(ownerUrl!, databaseName);
  });

  it("is ready, then names the database while it is away, then is ready again", async () => {
    expect(await checkReadiness()).toMatchObject({ ok: true, checks: { database: { ok: true }, migrations: { ok: true, detail: "current" } } });

    await relay.cut();
    const away = await checkReadiness();
    expect(away.ok).toBe(false);
    expect(away.checks.database.ok).toBe(false);
    expect(away.checks.database.detail).toMatch(/^not answering: /);
    expect(away.checks.draining.ok).toBe(true);

    await relay.restore();
    await expect.poll(async () => (await checkReadiness()).ok, { timeout: 15_000, interval: 250 }).toBe(true);
  }, 60_000);
});
