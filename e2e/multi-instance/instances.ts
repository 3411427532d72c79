import { execFileSync } from "node:child_process";
import path from "node:path";
import { nextServerGroupsOnPort } from "@/test/kit/server-processes";
import { e2eMetricsToken } from "../support/metrics-token";

/**
 * The multi-instance run (ADR 0024): two `next start` instances of the built app on one real
 * PostgreSQL, behind Debian's nginx with TLS, sharing one sandbox. Instance A and nginx are
 * Playwright's web servers; instance B is started and stopped by the spec (SIGTERM, SIGKILL).
 * Everything here reads the values the configuration fixed in the environment, so the
 * configuration and the spec agree.
 */

const basePort = Number(process.env.E2E_MULTI_PORT ?? 3300);

export const ports = {
  nginx: basePort,
  instanceA: basePort + 1,
  instanceB: basePort + 2,
  sandbox: basePort + 100,
} as const;

export const publicUrl = `https://127.0.0.1:${ports.nginx}`;
export const sandboxUrl = `http://127.0.0.1:${ports.sandbox}`;

/** Unwatched tokens are asked about every 4 s here (30 s in production), so a minute shows enough polls. */
export const UNWATCHED_POLL_MS = 4_000;

export type InstanceName = "A" | "B";

export function instancePort(name: InstanceName): number {
  return name === "A" ? ports.instanceA : ports.instanceB;
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is unset: the multi-instance run is configured by e2e/multi-instance/playwright.config.ts`);
  return value;
}

export function withDatabase(url: string, databaseName: string): string {
  const next = new URL(url);
  next.pathname = `/${databaseName}`;
  return next.toString();
}

/** The owner role's URL of this run's database (migrations; the spec reads leases with it). */
export function ownerDatabaseUrl(): string {
  return withDatabase(required("TEST_DATABASE_URL"), required("E2E_MULTI_DATABASE"));
}

export function instanceLogFile(name: InstanceName): string {
  return path.join(required("E2E_MULTI_DIR"), `instance-${name}.log`);
}

export function nginxAccessLog(): string {
  return path.join(required("E2E_MULTI_DIR"), "nginx-access.log");
}

/** Why nginx answered a request itself (refused, reset, no live instance). */
export function nginxErrorLog(): string {
  return path.join(required("E2E_MULTI_DIR"), "nginx-error.log");
}

/** One instance's settings: as production would set them behind nginx, but APP_ENV=test (demo accounts, http sandbox). */
export function instanceEnv(name: InstanceName): Record<string, string> {
  const appBase = process.env.TEST_APP_DATABASE_URL ?? required("TEST_DATABASE_URL");
  return {
    APP_ENV: "test",
    PORT: String(instancePort(name)),
    BIND_HOST: "127.0.0.1",
    APP_URL: publicUrl,
    UPSTREAM_BASE_URL: sandboxUrl,
    UPSTREAM_ISSUE_TIMEOUT_MS: "12000",
    DATABASE_URL: withDatabase(appBase, required("E2E_MULTI_DATABASE")),
    MIGRATION_DATABASE_URL: ownerDatabaseUrl(),
    AUTH_SECRET: required("E2E_MULTI_AUTH_SECRET"),
    PII_ENCRYPTION_KEY: required("E2E_MULTI_PII_ENCRYPTION_KEY"),
    PII_INDEX_KEY: required("E2E_MULTI_PII_INDEX_KEY"),
    TRUSTED_PROXY_HOPS: "1",
    WATCHER_UNWATCHED_POLL_MS: String(UNWATCHED_POLL_MS),
    SERVER_LOG_FILE: instanceLogFile(name),
    // Each instance's own counters (the spec counts each watcher's polls from them).
    METRICS_TOKEN: e2eMetricsToken,
    E2E_SEED_DEMO: "",
  };
}

/** How many polls of open tokens this instance's watcher has made since it started (its own metrics). */
export async function watcherPollsOf(name: InstanceName): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${instancePort(name)}/api/metrics`, { headers: { authorization: `Bearer ${e2eMetricsToken}` } });
  if (!response.ok) throw new Error(`instance ${name}'s metrics answered ${response.status}`);
  const lines = (await response.text()).split("\n").filter((line) => line.startsWith("veridesk_watcher_polls_total"));
  return lines.reduce((total, line) => total + Number(line.slice(line.lastIndexOf(" ") + 1)), 0);
}

/** Process groups of `next start` on an instance's port (serve-app starts it in a group of its own). */
export function nextServerGroups(name: InstanceName): number[] {
  return nextServerGroupsOnPort(instancePort(name));
}

/** The pids of `next-server` processes on an instance's port: the watcher's lease owner starts with `<host>:<pid>:`. */
export function nextServerPids(name: InstanceName): number[] {
  const groups = new Set(nextServerGroups(name));
  const lines = execFileSync("ps", ["-eo", "pid=,pgid="], { encoding: "utf8" }).split("\n");
  return lines
    .map((line) => line.trim().split(/\s+/).map(Number))
    .filter(([pid, group]) => pid !== undefined && group !== undefined && groups.has(group))
    .map(([pid]) => pid!);
}
