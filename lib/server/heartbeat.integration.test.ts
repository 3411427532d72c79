import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { instanceHeartbeats } from "@/lib/db/schema";
import { openScratchDatabase, type ScratchDatabase } from "@/test/kit/database";
import { HEARTBEAT_SILENT_MS, listInstances, startHeartbeat } from "./heartbeat";

/** The instances the Operations page lists, from their heartbeats. */

let scratch: ScratchDatabase;
const log = { error: (details: object, message: string) => console.error(message, details) };

beforeAll(async () => {
  scratch = await openScratchDatabase({ driver: "pglite", name: "heartbeat" });
}, 60_000);

afterAll(async () => {
  await scratch?.destroy();
});

describe("instance heartbeats", () => {
  it("an instance is running while it beats, stopping at SIGTERM, gone once stopped, silent if it died", async () => {
    const db = scratch.opened.db;
    let clock = new Date("2026-11-24T10:00:00Z");
    const heartbeat = startHeartbeat({ db: async () => db, runsWatcher: true, log, intervalMs: 60_000, now: () => clock });
    await expect.poll(async () => (await listInstances(db, clock)).map((instance) => instance.status)).toEqual(["running"]);
    const [listed] = await listInstances(db, clock);
    expect(listed).toMatchObject({ instanceId: heartbeat.instanceId, pid: process.pid, runsWatcher: true });

    await heartbeat.markStopping();
    expect((await listInstances(db, clock)).map((instance) => instance.status)).toEqual(["stopping"]);
    await heartbeat.remove();
    expect(await listInstances(db, clock)).toEqual([]);

    // One that died mid-beat: its row stays, unrenewed.
    const crashed = startHeartbeat({ db: async () => db, runsWatcher: false, log, intervalMs: 60_000, now: () => clock });
    await expect.poll(async () => (await listInstances(db, clock)).length).toBe(1);
    await crashed.markStopping().then(() => db.update(instanceHeartbeats).set({ isStopping: false }));
    clock = new Date(clock.getTime() + HEARTBEAT_SILENT_MS + 1_000);
    expect((await listInstances(db, clock)).map((instance) => instance.status)).toEqual(["silent"]);
    // An hour later it is off the list.
    expect(await listInstances(db, new Date(clock.getTime() + 60 * 60_000))).toEqual([]);
  });
});
