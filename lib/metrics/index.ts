import "server-only";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

/**
 * What an instance tells Prometheus (ADR 0024; docs/operations.md lists the names). One registry
 * per process, kept on globalThis: Next bundles route handlers, server actions and
 * instrumentation separately, and each bundle would otherwise count into a registry of its own.
 * Labels are short fixed words — never a token, an id or anything a customer typed.
 */


/** Seconds: a provider answer is usually under a second; issuing may wait up to 30 s. */
const upstreamBuckets = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30];
/** Seconds: a poll route answers from the database in milliseconds. */
const routeBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "veridesk_" });
  return {
    registry,
    upstreamCalls: new Counter({
      name: "veridesk_upstream_calls_total",
      help: "Calls to the verification service, by endpoint and outcome (ok, or the error code in lower case).",
      labelNames: ["endpoint", "outcome"] as const,
      registers: [registry],
    }),
    upstreamCallSeconds: new Histogram({
      name: "veridesk_upstream_call_duration_seconds",
      help: "How long each call to the verification service took, by endpoint and outcome.",
      labelNames: ["endpoint", "outcome"] as const,
      buckets: upstreamBuckets,
      registers: [registry],
    }),
    tokensIssued: new Counter({
      name: "veridesk_tokens_issued_total",
      help: "Issuing attempts settled, by kind (fingerprint, remote) and outcome (issued, rejected, failed_upstream, outcome_unknown).",
      labelNames: ["kind", "outcome"] as const,
      registers: [registry],
    }),
    tokensFinished: new Counter({
      name: "veridesk_tokens_finished_total",
      help: "Tokens that reached a final state in this instance's watcher, by state (successful, failed, expired, …).",
      labelNames: ["state"] as const,
      registers: [registry],
    }),
    watcherLagSeconds: new Gauge({
      name: "veridesk_watcher_lag_seconds",
      help: "How late this instance's watcher started its last poll, against the token's due time.",
      registers: [registry],
    }),
    tokensMayExistUnrecorded: new Gauge({
      name: "veridesk_tokens_unrecorded",
      help: "Issuing attempts whose token may exist but is not recorded (pending past the issuing limit, or outcome unknown while its SMS can still be entered); read by the watcher's sweep every 10 s, the same figure from every instance running it.",
      registers: [registry],
    }),
    answersWaitingToBeRecorded: new Gauge({
      name: "veridesk_answers_waiting_to_be_recorded",
      help: "Answers of the verification service this instance holds in memory because the database refused them; written again until it takes them.",
      registers: [registry],
    }),
    watcherPolls: new Counter({
      name: "veridesk_watcher_polls_total",
      help: "Polls of open tokens made by this instance's watcher.",
      registers: [registry],
    }),
    pollRouteSeconds: new Histogram({
      name: "veridesk_poll_route_duration_seconds",
      help: "How long the browser's poll routes took to answer, by route (token, today) and status.",
      labelNames: ["route", "status"] as const,
      buckets: routeBuckets,
      registers: [registry],
    }),
    webhookAttempts: new Counter({
      name: "veridesk_webhook_attempts_total",
      help: "Webhook delivery attempts by this instance, by outcome (delivered, retry, failed, refused).",
      labelNames: ["outcome"] as const,
      registers: [registry],
    }),
    webhookEndpointsDisabled: new Counter({
      name: "veridesk_webhook_endpoints_disabled_total",
      help: "Webhook endpoints this instance disabled, by reason (gone: answered 410; failing: five days of failures).",
      labelNames: ["reason"] as const,
      registers: [registry],
    }),
    signInFailures: new Counter({
      name: "veridesk_sign_in_failures_total",
      help: "Refused sign-ins, by reason (wrong_password, locked, address_limited, disabled, demo_account_in_production).",
      labelNames: ["reason"] as const,
      registers: [registry],
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

const globalForMetrics = globalThis as typeof globalThis & { verideskMetrics?: Metrics };

export function metrics(): Metrics {
  return (globalForMetrics.verideskMetrics ??= createMetrics());
}

/** The names this instance exposes besides the default process ones (docs and tests read it). */
export const veridesksMetricNames = [
  "veridesk_upstream_calls_total",
  "veridesk_upstream_call_duration_seconds",
  "veridesk_tokens_issued_total",
  "veridesk_tokens_finished_total",
  "veridesk_watcher_lag_seconds",
  "veridesk_watcher_polls_total",
  "veridesk_poll_route_duration_seconds",
  "veridesk_sign_in_failures_total",
] as const;
