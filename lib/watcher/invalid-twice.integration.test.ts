import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Database } from "@/lib/db/types";
import { tokenRequests } from "@/lib/db/schema";
import { forEachDatabase, openScratchDatabase, type ScratchDatabase } from "@/test/kit/database";
import { seedIssuedTokens } from "@/test/kit/issued-tokens";
import { createUpstreamClient, type UpstreamClient } from "@/lib/upstream";
import { startSandbox, type RunningSandbox } from "@/sandbox/app";
import { createDrizzleWatcherStore } from "./drizzle-store";
import { watcherSettingsFrom } from "./settings";
import { createWatcher } from "./watcher";

/**
 * "Invalid Token" once, inside a token's 15 minutes, does not close it (ADR 0043): the sandbox
 * answers check_token_status with "Invalid Token" once (as a provider failing over may), the
 * watcher asks again 5 s later, hears "Pending Token" and keeps following; said twice 5 s apart,
 * the token is invalid. Real database, real sandbox, the watcher's own store.
 */

const API_KEY = "invalid-twice-key";
const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const settings = watcherSettingsFrom({
  WATCHER_TICK_MS: 1000,
  WATCHER_WATCHED_POLL_MS: 2000,
  WATCHER_UNWATCHED_POLL_MS: 30_000,
  WATCHER_MAX_IN_FLIGHT: 8,
  WATCHER_CALLS_PER_SECOND: 100,
  WATCHER_MAX_BACKOFF_SECONDS: 300,
  WATCHER_FOLLOW_USED_MINUTES: 120,
  UPSTREAM_TIMEOUT_MS: 3000,
});

function defineTests(createDatabase: () => Promise<ScratchDatabase>) {
  let scratch: ScratchDatabase;
  let db: Database;
  let sandbox: RunningSandbox;
  let upstream: UpstreamClient;

  beforeAll(async () => {
    scratch = await createDatabase();
    db = scratch.opened.db;
    sandbox = await startSandbox({ port: 0, apiKey: API_KEY });
    upstream = createUpstreamClient({ baseUrl: sandbox.url, apiKey: API_KEY, timeoutMs: 3_000, logger: { info: () => undefined, warn: () => undefined } });
  }, 120_000);

  afterAll(async () => {
    await sandbox?.close();
    await scratch?.destroy();
  });

  const answerInvalidOnce = async (token: string, count: number) => {
    const response = await fetch(`${sandbox.url}/sandbox/api/faults`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ mode: "invalid-token", count, path: "/api/identification/check_token_status", token }),
    });
    expect(response.ok).toBe(true);
  };
  const rowOf = async (id: string) => (await db.select().from(tokenRequests).where(eq(tokenRequests.id, id)))[0]!;

  it("asks again a few seconds after one Invalid Token, keeps the token when the service says Pending, and closes it as invalid only when said twice", async () => {
    const clock = { now: new Date() };
    const [takenBack, invalid] = await seedIssuedTokens(db, upstream, 2, new Date(clock.now.getTime() - 60_000));
    const watcher = createWatcher({ store: createDrizzleWatcherStore(db), source: upstream, settings, logger: quiet, now: () => new Date(clock.now) });
    await answerInvalidOnce(takenBack!.token, 1);
    await answerInvalidOnce(invalid!.token, 2);

    expect(await watcher.runOnce()).toBe(2);
    for (const { id } of [takenBack!, invalid!]) {
      const row = await rowOf(id);
      expect(row.liveState).toBe("waiting");
      expect(row.invalidSeenAt).not.toBeNull();
      expect(row.nextPollAt).toEqual(new Date(clock.now.getTime() + 5_000));
    }

    clock.now = new Date(clock.now.getTime() + 5_000);
    expect(await watcher.runOnce()).toBe(2);
    const kept = await rowOf(takenBack!.id);
    expect(kept).toMatchObject({ liveState: "waiting", invalidSeenAt: null, lastUpstreamState: "pending", finishedAt: null });
    const closed = await rowOf(invalid!.id);
    expect(closed).toMatchObject({ liveState: "invalid", lastUpstreamState: "invalid" });
    expect(closed.finishedAt).not.toBeNull();
  });
}

forEachDatabase("a token the service calls invalid once", (driver) => defineTests(() => openScratchDatabase({ driver, name: "invalid_twice" })));
