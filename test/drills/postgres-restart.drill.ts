import { execFileSync, type ChildProcess } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  drillSecrets,
  freePort,
  isReady,
  killAppHard,
  issueUntil,
  repoRoot,
  signInTeller,
  sleep,
  startApp,
  startSandbox,
  stopProcess,
  tokensIssuedAt,
  waitFor,
} from "@/test/kit/app-process";

/**
 * The database restarts under load (PostgreSQL): the built app on a PostgreSQL cluster of the
 * drill's own (so restarting it disturbs no other suite), four tellers issuing fingerprint tokens
 * through the form's action without pause, while the cluster is restarted twice and then stopped
 * for 8 s. Counted at the end: every token the provider issued is recorded (0 lost); readiness
 * was red while the database was down and green after; the audit chain verifies.
 *
 * Needs root (the cluster runs as the `postgres` user) and a build (`npx next build`, in the run's
 * NEXT_DIST_DIR): `npx vitest run --project drills test/drills/postgres-restart.drill.ts`.
 */

const pgBin = existsSync("/usr/lib/postgresql") ? path.join("/usr/lib/postgresql", readdirSync("/usr/lib/postgresql").sort().at(-1)!, "bin") : null;
const canRun = pgBin !== null && process.getuid?.() === 0;

const OWNER = "drill_owner";
const APP = "drill_app";
const LOAD_SECONDS = 40;

type Cluster = { dir: string; port: number; ctl: (...args: string[]) => void };
let cluster: Cluster | undefined;
let sandbox: { process: ChildProcess; url: string };
let app: ChildProcess;
let appUrl: string;
const secrets = drillSecrets();

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

const ownerUrl = () => `postgres://${OWNER}@127.0.0.1:${cluster!.port}/veridesk`;

describe.runIf(canRun)("PostgreSQL restarted and stopped under load", () => {
  beforeAll(async () => {
    cluster = await startCluster();
    sandbox = await startSandbox();
    appUrl = `http://127.0.0.1:${await freePort()}`;
    app = startApp(appUrl, {
      ...secrets,
      UPSTREAM_BASE_URL: sandbox.url,
      UPSTREAM_ISSUE_TIMEOUT_MS: "8000",
      DATABASE_URL: `postgres://${APP}:${APP}@127.0.0.1:${cluster.port}/veridesk`,
      MIGRATION_DATABASE_URL: ownerUrl(),
    });
    await waitFor(() => isReady(appUrl), 120_000, "the app to be ready");
  }, 180_000);

  afterAll(async () => {
    await Promise.all([stopProcess(app), stopProcess(sandbox?.process)]);
    if (app) killAppHard(app, appUrl);
    try {
      cluster?.ctl("stop", "-m", "immediate");
    } catch {
      // Stopped already.
    }
    if (cluster) rmSync(cluster.dir, { recursive: true, force: true });
  });

  it("loses no issued token, says so in readiness, and keeps the audit chain whole", async () => {
    const cookie = await signInTeller(appUrl);
    // The faults, while the tellers issue: two restarts, then 8 s with no database at all.
    const faults = (async () => {
      await sleep(6_000);
      cluster!.ctl("restart", "-m", "fast");
      await sleep(8_000);
      cluster!.ctl("restart", "-m", "immediate");
      await sleep(8_000);
      cluster!.ctl("stop", "-m", "fast");
      let sawRed = false;
      const downUntil = Date.now() + 8_000;
      while (Date.now() < downUntil) {
        if (!(await isReady(appUrl).catch(() => false))) sawRed = true;
        await sleep(500);
      }
      cluster!.ctl("start");
      await waitFor(() => isReady(appUrl), 30_000, "readiness to turn green after the database came back");
      return sawRed;
    })();
    const [sawRed, tally] = await Promise.all([faults, issueUntil(appUrl, cookie, Date.now() + LOAD_SECONDS * 1000, 4)]);
    expect(sawRed, "readiness red while the database was stopped").toBe(true);

    // Every token the provider issued is in the database: an answer the database refused was kept
    // and written again, or its attempt turned outcome unknown with the token attached later.
    const issued = (await tokensIssuedAt(sandbox.url)).map((entry) => entry.token);
    const owner = new pg.Client({ connectionString: ownerUrl() });
    await owner.connect();
    let missing: string[] = [];
    try {
      await waitFor(
        async () => {
          const { rows } = await owner.query<{ token: string }>("SELECT token FROM token_requests WHERE token IS NOT NULL");
          const recorded = new Set(rows.map((row) => row.token));
          missing = issued.filter((token) => !recorded.has(token));
          return missing.length === 0;
        },
        30_000,
        "every issued token to be recorded",
      ).catch(() => undefined);
    } finally {
      await owner.end();
    }
    console.log(`postgres-restart drill: ${issued.length} issued at the provider, ${tally.issued} answered issued, refused ${JSON.stringify(Object.fromEntries(tally.refused))}, missing ${missing.length}`);
    expect(issued.length).toBeGreaterThan(20);
    expect(missing, "issued by the provider and never recorded").toEqual([]);

    const verified = execFileSync("npx", ["tsx", "--conditions=react-server", "scripts/audit-verify.ts"], {
      cwd: repoRoot,
      encoding: "utf8",
      env: { ...process.env, ...secrets, APP_ENV: "test", DATABASE_URL: ownerUrl(), MIGRATION_DATABASE_URL: ownerUrl() },
    });
    expect(verified).toMatch(/Events checked: \d+/);
  }, 180_000);
});
