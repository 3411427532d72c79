/**
 * `npm run bench:pg-boss`: a small measured prototype of pg-boss 12 (ADR 0059) on both of the
 * project's databases — the embedded PGlite (in this process, through pg-boss's own PGlite
 * adapter) and PostgreSQL (TEST_DATABASE_URL, when set) — so that the background loops' one
 * mechanism is chosen with figures. Not the app's code: nothing in app/ or lib/ imports pg-boss.
 *
 * Per database it prints: the schema's installation (first start), the writes' cost (a job sent
 * one at a time, as a token's write would), how long a sent job waits before its worker starts it
 * (polling every 0.5 s, the least pg-boss allows, and woken by LISTEN/NOTIFY), and what an idle
 * worker costs (CPU-seconds a minute of this process, and queries a minute).
 */
import { PGlite } from "@electric-sql/pglite";
import { PgBoss, fromPglite } from "pg-boss";

const SENDS = 300;
const LATENCY_SAMPLES = 40;
const IDLE_SECONDS = 20;

type Target = { name: string; make: () => Promise<{ boss: PgBoss; queries: () => number; close: () => Promise<void> }> };

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))]!;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function measure(target: Target): Promise<void> {
  console.log(`\n── ${target.name}`);
  let started = performance.now();
  const { boss, queries, close } = await target.make();
  boss.on("error", (error) => console.error("pg-boss error:", error.message));
  await boss.start();
  console.log(`schema installed and started: ${(performance.now() - started).toFixed(0)} ms`);

  await boss.createQueue("bench-send");
  started = performance.now();
  for (let index = 0; index < SENDS; index++) await boss.send("bench-send", { index });
  const sendMs = performance.now() - started;
  console.log(`send one at a time: ${SENDS} jobs in ${sendMs.toFixed(0)} ms (${(sendMs / SENDS).toFixed(2)} ms a job, ${((SENDS / sendMs) * 1000).toFixed(0)} jobs/s)`);

  for (const mode of [
    { label: "polling every 0.5 s", queue: "bench-poll", notify: false },
    { label: "LISTEN/NOTIFY", queue: "bench-notify", notify: true },
  ]) {
    await boss.createQueue(mode.queue, { notify: mode.notify } as never);
    const sentAt = new Map<string, number>();
    const waits: number[] = [];
    await boss.work(mode.queue, { pollingIntervalSeconds: 0.5, notifyPollingIntervalSeconds: 30 }, async ([job]) => {
      const sent = sentAt.get(String((job!.data as { id: string }).id));
      if (sent !== undefined) waits.push(performance.now() - sent);
    });
    for (let index = 0; index < LATENCY_SAMPLES; index++) {
      const id = `${mode.queue}-${index}`;
      sentAt.set(id, performance.now());
      await boss.send(mode.queue, { id });
      await sleep(150 + Math.random() * 200);
    }
    const deadline = Date.now() + 35_000;
    while (waits.length < LATENCY_SAMPLES && Date.now() < deadline) await sleep(100);
    await boss.offWork(mode.queue);
    const sorted = [...waits].sort((a, b) => a - b);
    console.log(
      `send → worker starts (${mode.label}): ${waits.length}/${LATENCY_SAMPLES} jobs, p50 ${percentile(sorted, 0.5).toFixed(0)} ms, p95 ${percentile(sorted, 0.95).toFixed(0)} ms, max ${sorted.at(-1)!.toFixed(0)} ms`,
    );
  }

  await boss.createQueue("bench-idle");
  await boss.work("bench-idle", { pollingIntervalSeconds: 2 }, async () => {});
  await sleep(2_000);
  const queriesBefore = queries();
  const cpuBefore = process.cpuUsage();
  await sleep(IDLE_SECONDS * 1000);
  const cpu = process.cpuUsage(cpuBefore);
  const perMinute = 60 / IDLE_SECONDS;
  console.log(
    `idle, one worker polling every 2 s (the default), maintenance on: ${(((cpu.user + cpu.system) / 1e6) * perMinute).toFixed(2)} CPU-s a minute in this process, ${((queries() - queriesBefore) * perMinute).toFixed(0)} queries a minute`,
  );
  await boss.stop({ graceful: false, wait: true } as never);
  await close();
}

const targets: Target[] = [
  {
    name: "PGlite (embedded, in this process)",
    make: async () => {
      const pglite = await PGlite.create();
      let count = 0;
      const counted = {
        query: (text: string, params?: unknown[]) => {
          count++;
          return pglite.query(text, params);
        },
        exec: (text: string) => {
          count++;
          return pglite.exec(text);
        },
        listen: pglite.listen.bind(pglite),
      };
      const boss = new PgBoss({ db: fromPglite(counted as never), backend: "pglite", useListenNotify: true } as never);
      return { boss, queries: () => count, close: () => pglite.close() };
    },
  },
];

const postgresUrl = process.env.TEST_DATABASE_URL;
if (postgresUrl) {
  targets.push({
    name: "PostgreSQL (TEST_DATABASE_URL)",
    make: async () => {
      const boss = new PgBoss({ connectionString: postgresUrl, schema: `pgboss_bench_${process.pid}`, useListenNotify: true, max: 4 } as never);
      let count = 0;
      // pg-boss owns its pool here; count what it sends by wrapping its executor once started.
      boss.on("error", () => {});
      const originalStart = boss.start.bind(boss);
      boss.start = (async () => {
        const result = await originalStart();
        const db = (boss as unknown as { getDb(): { executeSql: (...args: unknown[]) => Promise<unknown> } }).getDb();
        const execute = db.executeSql.bind(db);
        db.executeSql = (...args: unknown[]) => {
          count++;
          return execute(...args);
        };
        return result;
      }) as typeof boss.start;
      return { boss, queries: () => count, close: async () => {} };
    },
  });
} else {
  console.log("TEST_DATABASE_URL is not set: PGlite only (bash scripts/ci-postgres.sh prints one).");
}

console.log(`pg-boss prototype on Node.js ${process.versions.node}`);
for (const target of targets) await measure(target);
