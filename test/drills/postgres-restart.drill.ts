import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findActionResult, resolveAction } from "@/e2e/support/action-calls";
import { fingerprintSubmission } from "@/test/kit/submissions";

/**
 * The database restarts under load (PostgreSQL): the built app on a PostgreSQL cluster of the
 * drill's own (so restarting it disturbs no other suite), tellers issuing fingerprint tokens
 * through the form's action without pause, while the cluster is restarted twice and then stopped
 * for 8 s. Counted at the end: every token the provider issued is recorded (0 lost); readiness
 * was red while the database was down and green after; the audit chain verifies.
 *
 * Needs root (the cluster runs as the `postgres` user) and a build (`npx next build`; the
 * NEXT_DIST_DIR of the run). Run with `npx vitest run --project drills test/drills/postgres-restart.drill.ts`.
 */

const repoRoot = path.resolve(import.meta.dirname, "..", "..");
const pgBin = existsSync("/usr/lib/postgresql") ? path.join("/usr/lib/postgresql", readdirSync("/usr/lib/postgresql").sort().at(-1)!, "bin") : null;
const canRun = pgBin !== null && process.getuid?.() === 0;

const OWNER = "drill_owner";
const APP = "drill_app";
const LOAD_SECONDS = 40;
const TELLERS = 4;

type Cluster = { dir: string; port: number; ctl: (...args: string[]) => void };
let cluster: Cluster;
let sandbox: ChildProcess;
let app: ChildProcess;
let appUrl: string;
let sandboxUrl: string;
const secrets = {
  AUTH_SECRET: randomBytes(32).toString("base64"),
  PII_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
  PII_INDEX_KEY: randomBytes(32).toString("base64"),
};

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

function asPostgres(command: string, args: string[]): string {
  return execFileSync("runuser", ["-u", "postgres", "--", command, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

async function startCluster(): Promise<Cluster> {
  const dir = mkdtempSync(path.join(tmpdir(), "veridesk-drill-pg-"));
  chmodSync(dir, 0o755);
  chownSync(dir, Number(asPostgres("id", ["-u"]).trim()), Number(asPostgres("id", ["-g"]).trim()));
  const port = await freePort();
  const data = path.join(dir, "data");
  asPostgres(path.join(pgBin!, "initdb"), ["-D", data, "-U", OWNER, "--auth=trust", "-E", "UTF8", "--no-sync"]);
  const ctl = (...args: string[]) => {
    asPostgres(path.join(pgBin!, "pg_ctl"), ["-D", data, "-l", path.join(dir, "server.log"), "-o", `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`, "-w", ...args]);
  };
  ctl("start");
  const owner = new pg.Client({ connectionString: `postgres://${OWNER}@127.0.0.1:${port}/postgres` });
  await owner.connect();
  await owner.query(`CREATE ROLE ${APP} LOGIN PASSWORD '${APP}'`);
  await owner.query("CREATE DATABASE veridesk");
  await owner.end();
  return { dir, port, ctl };
}

function start(command: string, args: string[], env: Record<string, string>): ChildProcess {
  return spawn(command, args, { cwd: repoRoot, env: { ...process.env, ...env }, stdio: "ignore", detached: true });
}

function stopGroup(child: ChildProcess | undefined, signal: NodeJS.Signals = "SIGTERM"): void {
  if (child?.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const giveUpAt = Date.now() + timeoutMs;
  while (Date.now() < giveUpAt) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const readinessOk = async () => (await fetch(`${appUrl}/api/health/ready`)).ok;
const ownerUrl = () => `postgres://${OWNER}@127.0.0.1:${cluster.port}/veridesk`;

describe.runIf(canRun)("PostgreSQL restarted and stopped under load", () => {
  beforeAll(async () => {
    cluster = await startCluster();
    const [appPort, sandboxPort] = [await freePort(), await freePort()];
    appUrl = `http://127.0.0.1:${appPort}`;
    sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
    sandbox = start("npx", ["tsx", "sandbox/server.ts"], { SANDBOX_PORT: String(sandboxPort) });
    app = start("npx", ["tsx", "--conditions=react-server", "scripts/serve-app.ts"], {
      APP_ENV: "test",
      PORT: String(appPort),
      APP_URL: appUrl,
      UPSTREAM_BASE_URL: sandboxUrl,
      UPSTREAM_ISSUE_TIMEOUT_MS: "8000",
      DATABASE_URL: `postgres://${APP}:${APP}@127.0.0.1:${cluster.port}/veridesk`,
      MIGRATION_DATABASE_URL: ownerUrl(),
      ...secrets,
      E2E_SEED_DEMO: "",
      LOG_LEVEL: "warn",
    });
    await waitFor(readinessOk, 120_000, "the app to be ready");
  }, 180_000);

  afterAll(async () => {
    stopGroup(app);
    stopGroup(sandbox);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    stopGroup(app, "SIGKILL");
    stopGroup(sandbox, "SIGKILL");
    try {
      cluster?.ctl("stop", "-m", "immediate");
    } catch {
      // Stopped already.
    }
    if (cluster) rmSync(cluster.dir, { recursive: true, force: true });
  });

  it("loses no issued token, says so in readiness, and keeps the audit chain whole", async () => {
    const signIn = await fetch(`${appUrl}/api/auth/sign-in/username`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: appUrl },
      body: JSON.stringify({ username: "teller.accra", password: "veridesk-demo" }),
    });
    expect(signIn.ok).toBe(true);
    const cookie = signIn.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");
    const issue = resolveAction({ file: "app/(staff)/tokens/new/fingerprint/actions.ts", name: "issueFingerprintTokenAction" });

    const answers = { issued: 0, refused: new Map<string, number>() };
    const endAt = Date.now() + LOAD_SECONDS * 1000;
    const teller = async () => {
      while (Date.now() < endAt) {
        const response = await fetch(`${appUrl}${issue.pagePath}`, {
          method: "POST",
          headers: { cookie, "next-action": issue.id, "content-type": "text/plain;charset=UTF-8", accept: "text/x-component", origin: appUrl },
          body: JSON.stringify([{ ...fingerprintSubmission(), idempotencyKey: randomUUID() }]),
        }).catch(() => null);
        const result = response ? findActionResult(await response.text()) : null;
        if (result?.ok) answers.issued += 1;
        else answers.refused.set(result?.code ?? `http ${response?.status ?? "none"}`, (answers.refused.get(result?.code ?? `http ${response?.status ?? "none"}`) ?? 0) + 1);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };

    // The faults, while the tellers issue: two restarts, then 8 s with no database at all.
    const faults = (async () => {
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      cluster.ctl("restart", "-m", "fast");
      await new Promise((resolve) => setTimeout(resolve, 8_000));
      cluster.ctl("restart", "-m", "immediate");
      await new Promise((resolve) => setTimeout(resolve, 8_000));
      cluster.ctl("stop", "-m", "fast");
      let sawRed = false;
      const downUntil = Date.now() + 8_000;
      while (Date.now() < downUntil) {
        if (!(await readinessOk().catch(() => false))) sawRed = true;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      cluster.ctl("start");
      await waitFor(readinessOk, 30_000, "readiness to turn green after the database came back");
      return sawRed;
    })();

    const [sawRed] = await Promise.all([faults, ...Array.from({ length: TELLERS }, teller)]);
    expect(sawRed, "readiness red while the database was stopped").toBe(true);

    // Every token the provider issued is in the database: an answer the database refused was kept
    // and written again, or its attempt turned outcome unknown with the token attached later.
    const { tokens } = (await (await fetch(`${sandboxUrl}/sandbox/api/tokens`)).json()) as { tokens: { token: string }[] };
    const owner = new pg.Client({ connectionString: ownerUrl() });
    await owner.connect();
    try {
      let missing: string[] = [];
      await waitFor(
        async () => {
          const { rows } = await owner.query<{ token: string }>("SELECT token FROM token_requests WHERE token IS NOT NULL");
          const recorded = new Set(rows.map((row) => row.token));
          missing = tokens.map((entry) => entry.token).filter((token) => !recorded.has(token));
          return missing.length === 0;
        },
        30_000,
        "every issued token to be recorded",
      ).catch(() => undefined);
      console.log(`postgres-restart drill: ${tokens.length} issued at the provider, ${answers.issued} answered issued to the teller, refused: ${JSON.stringify(Object.fromEntries(answers.refused))}, missing: ${missing.length}`);
      expect(tokens.length).toBeGreaterThan(20);
      expect(missing, "issued by the provider and never recorded").toEqual([]);
    } finally {
      await owner.end();
    }

    const verified = execFileSync("npx", ["tsx", "--conditions=react-server", "scripts/audit-verify.ts"], {
      cwd: repoRoot,
      encoding: "utf8",
      env: { ...process.env, ...secrets, APP_ENV: "test", DATABASE_URL: ownerUrl(), MIGRATION_DATABASE_URL: ownerUrl() },
    });
    expect(verified).toMatch(/Events checked: \d+/);
  }, 180_000);
});
