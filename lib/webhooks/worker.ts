import "server-only";
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { DbExecutor } from "@/lib/db/types";
import { metrics } from "@/lib/metrics";
import type { PiiKeys } from "@/lib/pii";
import type { AddressPolicy, Resolver } from "./address-policy";
import { sendWebhook, WEBHOOK_TIMEOUT_MS, type SendResult } from "./send";
import { signatureHeader, signingSecrets, webhookIdOf } from "./signing";
import { bodyOf, leaseDueDeliveries, recordAttempt, releaseDeliveryLeases, type LeasedDelivery } from "./store";

/**
 * The delivery worker: every tick it leases what is due (store.ts) and sends each delivery, signed
 * with the current time on every attempt and always the same webhook-id. Stopping waits for the
 * sends under way (15 s at most) and hands back the leases.
 */

type LogFn = (fields: Record<string, unknown>, message: string) => void;
export type WebhookLogger = { info: LogFn; warn: LogFn; error: LogFn };

export type WebhookWorkerSettings = {
  tickMs: number;
  /** Longer than a send can take (15 s), so a live lease never runs out mid-send. */
  leaseMs: number;
  maxInFlight: number;
  policy: AddressPolicy;
  requireHttps: boolean;
  timeoutMs?: number;
};

export const defaultWebhookWorkerSettings = { tickMs: 1_000, leaseMs: WEBHOOK_TIMEOUT_MS + 45_000, maxInFlight: 8 } as const;

export type WebhookWorker = {
  /** Leases what is due, sends it and waits for the sends (tests). Returns how many it sent. */
  runOnce(): Promise<number>;
  wake(): void;
  start(): void;
  stop(): Promise<void>;
  readonly owner: string;
};

export type WebhookWorkerDependencies = {
  db: DbExecutor;
  settings: WebhookWorkerSettings;
  keys: () => PiiKeys;
  logger: WebhookLogger;
  now?: () => Date;
  resolver?: Resolver;
  random?: () => number;
  owner?: string;
};

export function createWebhookWorker(deps: WebhookWorkerDependencies): WebhookWorker {
  const { db, settings, logger } = deps;
  const now = deps.now ?? (() => new Date());
  const owner = deps.owner ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const inFlight = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | null = null;
  let isStopping = false;
  let isLooking = false;

  async function deliver(leased: LeasedDelivery): Promise<void> {
    const { delivery, endpoint } = leased;
    const startedAt = now();
    let result: SendResult;
    try {
      const body = await bodyOf(db, delivery);
      const webhookId = webhookIdOf(delivery.id);
      const headers = {
        "webhook-id": webhookId,
        "webhook-timestamp": String(Math.floor(startedAt.getTime() / 1000)),
        "webhook-signature": signatureHeader(signingSecrets(endpoint, startedAt, deps.keys()), webhookId, startedAt, body),
      };
      result = await sendWebhook(endpoint.url, headers, body, {
        policy: settings.policy,
        requireHttps: settings.requireHttps,
        timeoutMs: settings.timeoutMs,
        resolver: deps.resolver,
      });
    } catch (error) {
      result = { kind: "failed", error: `could not prepare the delivery: ${(error as Error).message}`.slice(0, 300), latencyMs: 0 };
    }
    const recorded = await recordAttempt(db, { leased, owner, result, startedAt, now: now(), random: deps.random });
    const label = result.kind === "refused" ? "refused" : recorded.outcome;
    if (recorded.outcome !== "lease_lost") metrics().webhookAttempts.inc({ outcome: label });
    if (recorded.endpointDisabled) {
      metrics().webhookEndpointsDisabled.inc({ reason: recorded.endpointDisabled });
      logger.warn({ endpointId: endpoint.id, reason: recorded.endpointDisabled }, "webhook endpoint disabled");
    }
    const log = { deliveryId: delivery.id, endpointId: endpoint.id, event: delivery.eventType, attempt: delivery.attempts + 1, outcome: recorded.outcome };
    if (result.kind === "answered") logger.info({ ...log, status: result.statusCode, latencyMs: result.latencyMs }, "webhook attempt");
    else logger.warn({ ...log, error: result.error }, "webhook attempt");
  }

  async function lookOnce(waitForSends = true): Promise<number> {
    const free = settings.maxInFlight - inFlight.size;
    if (free <= 0 || isStopping) return 0;
    const leased = await leaseDueDeliveries(db, { owner, now: now(), leaseMs: settings.leaseMs, limit: free });
    const sends = leased.map((one) => {
      const sending: Promise<void> = deliver(one)
        .catch((error: unknown) => logger.error({ err: error, deliveryId: one.delivery.id }, "webhook delivery could not be recorded; it goes again after its lease"))
        .finally(() => inFlight.delete(sending));
      inFlight.add(sending);
      return sending;
    });
    if (waitForSends) await Promise.all(sends);
    return leased.length;
  }

  async function loop(): Promise<void> {
    if (isLooking || isStopping) return;
    isLooking = true;
    try {
      // The sends go on in the background: a slow receiver does not hold up the others.
      await lookOnce(false);
    } catch (error) {
      logger.error({ err: error }, "webhook worker could not lease deliveries");
    } finally {
      isLooking = false;
    }
  }

  return {
    owner,
    runOnce: () => lookOnce(true),
    wake() {
      void loop();
    },
    start() {
      if (timer) return;
      timer = setInterval(() => void loop(), settings.tickMs);
      timer.unref();
      logger.info({ owner, tickMs: settings.tickMs }, "webhook worker started");
    },
    async stop() {
      isStopping = true;
      if (timer) clearInterval(timer);
      timer = null;
      await Promise.allSettled([...inFlight]);
      await releaseDeliveryLeases(db, owner);
      logger.info({ owner }, "webhook worker stopped");
    },
  };
}
