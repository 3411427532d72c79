import "server-only";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { logger } from "@/lib/logger";
import { getPiiKeys } from "@/lib/pii";
import { addressPolicyFrom } from "./address-policy";
import { clearAllDeliveryLeases } from "./store";
import { createWebhookWorker, defaultWebhookWorkerSettings, type WebhookWorker } from "./worker";

// On globalThis: dev hot reload re-evaluates modules, and a second worker must never start.
const globalForWorker = globalThis as typeof globalThis & { verideskWebhookWorker?: Promise<WebhookWorker | null> };

/**
 * Starts this process's webhook delivery worker (lib/server/start.ts, beside the watcher). Off
 * with WEBHOOK_WORKER_ENABLED=false. The server's shutdown stops it: it finishes the sends under
 * way and hands back their leases.
 */
export function startWebhookWorker(): Promise<WebhookWorker | null> {
  globalForWorker.verideskWebhookWorker ??= boot().catch((error: unknown) => {
    logger.error({ err: error }, "webhook worker could not start; deliveries wait until a restart");
    globalForWorker.verideskWebhookWorker = undefined;
    return null;
  });
  return globalForWorker.verideskWebhookWorker;
}

export async function stopWebhookWorker(): Promise<void> {
  await (await globalForWorker.verideskWebhookWorker)?.stop();
}

/** Asks the worker to look for due deliveries now (an administrator just asked for a test or a resend). */
export function wakeWebhookWorker(): void {
  void globalForWorker.verideskWebhookWorker?.then((worker) => worker?.wake());
}

async function boot(): Promise<WebhookWorker | null> {
  const settings = env();
  const log = logger.child({ module: "webhooks" });
  if (!settings.WEBHOOK_WORKER_ENABLED) {
    log.info("webhook worker disabled (WEBHOOK_WORKER_ENABLED=false): another instance must run it");
    return null;
  }
  const db = await getDb();
  // An embedded database has one owner process (lib/db/pglite-lock.ts): a lease in it was left by
  // a previous run killed mid-send, so its deliveries go again now rather than after the lease.
  if (!settings.DATABASE_URL) await clearAllDeliveryLeases(db);
  const worker = createWebhookWorker({
    db,
    keys: getPiiKeys,
    logger: log,
    settings: { ...defaultWebhookWorkerSettings, policy: addressPolicyFrom(settings), requireHttps: settings.APP_ENV === "production" },
  });
  worker.start();
  return worker;
}
