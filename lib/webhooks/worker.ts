import "server-only";
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import { and, eq, sql } from "drizzle-orm";
import { webhookDeliveries, webhookEndpoints } from "@/lib/db/schema";
import type { DbExecutor } from "@/lib/db/types";
import { metrics } from "@/lib/metrics";
import { idleWaitMs, onNudge } from "@/lib/nudges";
import type { PiiKeys } from "@/lib/pii";
import type { AddressPolicy, Resolver } from "./address-policy";
import { sendWebhook, WEBHOOK_TIMEOUT_MS, type SendResult } from "./send";
import { signatureHeader, signingSecrets, webhookIdOf } from "./signing";
import { bodyOf, leaseDueDeliveries, recordAttempt, releaseDeliveryLeases, type LeasedDelivery } from "./store";

/**
 * The delivery worker: it leases what is due (store.ts) and sends each delivery, signed with the
 * current time on every attempt and always the same webhook-id. Stopping waits for the sends under
 * way (15 s at most) and hands back the leases.
 *
 * While deliveries flow it looks every tick. Idle (ADR 0047), its wait doubles with each look that
 * found nothing, from `tickMs` up to `idleMaxMs`, and such a look only asks when the next delivery
 * is due (a retry is then sent on time); an outbox row committed in this process (a token's end,
 * an administrator's test or resend) wakes it at once. A row written by another instance is found
 * within `idleMaxMs`.
 */

type LogFn = (fields: Record<string, unknown>, message: string) => void;
export type WebhookLogger = { info: LogFn; warn: LogFn; error: LogFn };

export type WebhookWorkerSettings = {
  tickMs: number;
  /** The longest an idle worker waits before it looks again (at least `tickMs`; absent: `tickMs`). */
  idleMaxMs?: number;
  /** Longer than a send can take (15 s), so a live lease never runs out mid-send. */
  leaseMs: number;
  maxInFlight: number;
  policy: AddressPolicy;
  requireHttps: boolean;
  timeoutMs?: number;
};

export const defaultWebhookWorkerSettings = { tickMs: 1_000, idleMaxMs: 10_000, leaseMs: WEBHOOK_TIMEOUT_MS + 45_000, maxInFlight: 8 } as const;

const MIN_SLEEP_MS = 50;

/** When the next pending delivery of an active endpoint can be leased (after its attempt time and any lease); null: none. */
export async function nextDeliveryDueAt(db: DbExecutor): Promise<Date | null> {
  const [row] = await db
    .select({ at: sql<Date | null>`min(greatest(${webhookDeliveries.nextAttemptAt}, ${webhookDeliveries.leaseUntil}))`.mapWith(webhookDeliveries.nextAttemptAt) })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(and(eq(webhookDeliveries.status, "pending"), eq(webhookEndpoints.status, "active")));
  return row?.at ?? null;
}

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
  /** When the next delivery is due (tests); the outbox's own answer otherwise. */
  nextDueAt?: () => Promise<Date | null>;
};

export function createWebhookWorker(deps: WebhookWorkerDependencies): WebhookWorker {
  const { db, settings, logger } = deps;
  const now = deps.now ?? (() => new Date());
  const owner = deps.owner ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const inFlight = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | null = null;
  let timerDueAt = Number.POSITIVE_INFINITY;
  let isStarted = false;
  let isStopping = false;
  let looking: Promise<void> | null = null;
  let lookAgain = false;
  // Looks in a row that found nothing: the idle wait doubles with each, up to idleMaxMs.
  let emptyLooks = 0;
  // The pending timer is an idle look: ask when the next delivery is due before leasing.
  let isProbeNext = false;
  let stopListening: (() => void) | null = null;

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
        .finally(() => {
          inFlight.delete(sending);
          // A freed slot, perhaps a retry scheduled: back to the busy pace, backing off from there.
          emptyLooks = 0;
          requestLook(settings.tickMs);
        });
      inFlight.add(sending);
      return sending;
    });
    if (waitForSends) await Promise.all(sends);
    return leased.length;
  }

  const currentIdleWaitMs = () => idleWaitMs(emptyLooks, settings.tickMs, settings.idleMaxMs ?? settings.tickMs);

  /** Looks after `delayMs` (only asking first, when `isProbe`), unless a look is already due sooner. */
  function requestLook(delayMs: number, isProbe = false): void {
    if (!isStarted || isStopping) return;
    const dueAt = Date.now() + Math.max(0, delayMs);
    if (timer && timerDueAt <= dueAt) return;
    if (timer) clearTimeout(timer);
    timerDueAt = dueAt;
    isProbeNext = isProbe;
    timer = setTimeout(onTimer, Math.max(0, delayMs));
    timer.unref();
  }

  function onTimer(): void {
    timer = null;
    timerDueAt = Number.POSITIVE_INFINITY;
    const isProbe = isProbeNext;
    isProbeNext = false;
    if (looking) {
      lookAgain = true;
      return;
    }
    looking = loop(isProbe).finally(() => {
      looking = null;
      if (lookAgain) {
        lookAgain = false;
        requestLook(0);
      }
    });
  }

  async function loop(isProbe: boolean): Promise<void> {
    if (isStopping) return;
    try {
      if (isProbe) {
        const nextDue = await (deps.nextDueAt ?? (() => nextDeliveryDueAt(db)))();
        const untilDue = nextDue ? nextDue.getTime() - now().getTime() : Number.POSITIVE_INFINITY;
        if (untilDue > 0) {
          emptyLooks += 1;
          const wait = currentIdleWaitMs();
          if (untilDue <= wait) requestLook(Math.max(MIN_SLEEP_MS, untilDue));
          else requestLook(wait, true);
          return;
        }
      }
      // The sends go on in the background: a slow receiver does not hold up the others.
      const leased = await lookOnce(false);
      emptyLooks = leased > 0 ? 0 : emptyLooks + 1;
      requestLook(leased > 0 ? settings.tickMs : currentIdleWaitMs(), leased === 0);
    } catch (error) {
      logger.error({ err: error }, "webhook worker could not lease deliveries");
      emptyLooks += 1;
      requestLook(currentIdleWaitMs());
    }
  }

  function wake(): void {
    emptyLooks = 0;
    if (isStarted) requestLook(0);
    else void loop(false);
  }

  return {
    owner,
    runOnce: () => lookOnce(true),
    wake,
    start() {
      if (isStarted) return;
      isStarted = true;
      // An outbox row committed in this process is sent at once, whatever the back-off.
      stopListening = onNudge("outbox", wake);
      requestLook(0);
      logger.info({ owner, tickMs: settings.tickMs, idleMaxMs: settings.idleMaxMs ?? settings.tickMs }, "webhook worker started");
    },
    async stop() {
      isStopping = true;
      stopListening?.();
      if (timer) clearTimeout(timer);
      timer = null;
      await looking;
      await Promise.allSettled([...inFlight]);
      await releaseDeliveryLeases(db, owner);
      logger.info({ owner }, "webhook worker stopped");
    },
  };
}
