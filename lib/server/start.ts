import "server-only";
import { unsupportedNodeMessage } from "@/lib/runtime";

/**
 * What a server instance does when it boots, on the Node runtime only (instrumentation.ts loads
 * this module under `NEXT_RUNTIME === "nodejs"`, so the Edge compilation of instrumentation.ts
 * never sees these Node-only modules). Reading the settings here makes a bad or missing variable
 * stop the app at start, with every problem named, instead of on the first request. Then the
 * token watcher starts (lib/watcher, ADR 0007): never while `next build` loads this file, and in
 * the background so the server answers at once. Older rows still holding contact details in clear
 * are encrypted (ADR 0023). On the embedded database the app also vacuums it now and then
 * (lib/db/upkeep.ts). And the retention job runs on its schedule
 * (lib/compliance/retention-schedule.ts). The instance writes a heartbeat (heartbeat.ts) so the
 * Operations page knows which instances run. On SIGTERM/SIGINT the app owns the shutdown order
 * (shutdown.ts, ADR 0024): readiness says "draining", every answer closes its keep-alive
 * connection, and the heartbeat says "stopping", the watcher finishes its polls and hands back its
 * leases, then the heartbeat row goes and the database closes, and only then does the process exit
 * (Next's own exit, after its last request, waits for these steps).
 */
export async function startServer(): Promise<void> {
  const isBuilding = process.env.NEXT_PHASE === "phase-production-build";
  // `next start` run by hand on an older Node.js gets the same one sentence as `npm start`.
  const unsupported = unsupportedNodeMessage(process.versions.node);
  if (unsupported && !isBuilding) {
    console.error(unsupported);
    process.exit(1);
  }
  // First of all: from here on each request carries the address of its connection, for the
  // per-address sign-in limits (peer-address.ts; those that arrived before go without).
  if (!isBuilding) (await import("./peer-address")).installPeerAddress();
  const { env } = await import("@/lib/env");
  try {
    env();
  } catch (error) {
    // A build fails on the thrown error. A server must not stay up answering 500 to every
    // request (what `next start` does with an error thrown here): it says why and exits.
    if (isBuilding) throw error;
    console.error((error as Error).message);
    process.exit(1);
  }
  if (isBuilding) return;
  const { logger } = await import("@/lib/logger");
  const { installProcessShutdown } = await import("./shutdown");
  const { startTokenWatcher, stopTokenWatcher } = await import("@/lib/watcher/boot");
  // A poll under way ends by its own timeout at the latest; past that and a margin, exit anyway.
  const shutdown = installProcessShutdown(logger.child({ module: "shutdown" }), env().UPSTREAM_TIMEOUT_MS + 5_000);
  // First, so it runs at the signal itself: the balancer's kept connections close with their
  // answers, and its next requests go to another instance (connection-drain.ts).
  const { installConnectionDrain } = await import("./connection-drain");
  const connectionDrain = installConnectionDrain(shutdown.isDraining);
  shutdown.onShutdown("keep-alive connections: close with their answers", async () => connectionDrain.closeConnections());
  // Which instances run, for the Operations page (heartbeat.ts).
  const { closeDb, getDb } = await import("@/lib/db/client");
  const { installHeartbeat, startHeartbeat } = await import("./heartbeat");
  const heartbeat = startHeartbeat({ db: getDb, runsWatcher: env().WATCHER_ENABLED, log: logger.child({ module: "heartbeat" }) });
  installHeartbeat(heartbeat);
  shutdown.onShutdown("instance heartbeat: stopping", heartbeat.markStopping);
  shutdown.onShutdown("token watcher", stopTokenWatcher);
  const { startRiskEvaluator, stopRiskEvaluator } = await import("@/lib/risk/boot");
  shutdown.onShutdown("risk rules evaluator", stopRiskEvaluator);
  const { startWebhookWorker, stopWebhookWorker } = await import("@/lib/webhooks/boot");
  shutdown.onShutdown("webhook worker", stopWebhookWorker);
  shutdown.onShutdown("instance heartbeat: gone", heartbeat.remove, "before-exit");
  // Answers of the service the database refused (ADR 0043): one last try while it is still open.
  const { flushRecordRetryQueueBeforeExit } = await import("@/lib/tokens/record-retry");
  shutdown.onShutdown("answers waiting to be recorded: a last try", flushRecordRetryQueueBeforeExit, "before-exit");
  shutdown.onShutdown("database", closeDb, "before-exit");
  // Rows written before the reference and phones were encrypted (ADR 0023); a no-op once done.
  // Keys are asked for only when a row needs them, so a fresh database starts without any.
  const [{ backfillContactEncryption, backfillPhoneNumberIndex }, { getPiiKeys }] = await Promise.all([import("@/lib/pii/backfill"), import("@/lib/pii/keys")]);
  void getDb()
    .then(async (db) => {
      const encrypted = await backfillContactEncryption(db, getPiiKeys);
      if (encrypted > 0) logger.info({ rows: encrypted }, "encrypted the reference and phone numbers of older tokens");
      // Then the phone's blind index of tokens issued before it existed (the risk rules' "same phone").
      const phones = await backfillPhoneNumberIndex(db, getPiiKeys);
      if (phones.indexed > 0) logger.info({ rows: phones.indexed }, "indexed the phones of older tokens");
      if (phones.unreadable > 0) logger.warn({ rows: phones.unreadable }, "phones of older tokens not indexed: they do not decrypt with the configured keys");
    })
    .catch((error: unknown) => logger.error({ err: error }, "could not encrypt or index the contact details of older tokens"));
  void startTokenWatcher();
  // The risk rules (ADR 0046): behind issuing, over what changed since the last pass.
  startRiskEvaluator();
  // Webhooks to the bank: the outbox's delivery worker, beside the watcher that fills it.
  void startWebhookWorker();
  const { startDatabaseUpkeep } = await import("@/lib/db/upkeep");
  void startDatabaseUpkeep();
  // The retention job (ADR 0022): erases personal data whose time is up, on a schedule.
  const { startRetentionSchedule } = await import("@/lib/compliance/retention-schedule");
  startRetentionSchedule();
}
