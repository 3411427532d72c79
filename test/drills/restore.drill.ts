import { execFileSync, type ChildProcess } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { base32Decode, totpCode, totpStepAt } from "@/lib/auth/two-factor/totp";
import { DEMO_AUTHENTICATOR_SECRET } from "@/lib/auth/two-factor/demo-secret";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  drillSecrets,
  freePort,
  isReady,
  issueUntil,
  killAppHard,
  repoRoot,
  signInTeller,
  startApp,
  startSandbox,
  stopProcess,
  tokensIssuedAt,
  waitFor,
} from "@/test/kit/app-process";

/**
 * A restore a branch can live on: tokens are issued on the built app, a backup is taken (on the
 * embedded database while the app serves, through `npm run db:backup`; on PostgreSQL with the
 * documented pg_dump/pg_restore as the owner role, then `db:migrate` and `db:restore -- --check`),
 * restored into an empty directory or database, and the app started on the restored copy alone
 * (on PostgreSQL as the app role, without the owner's URL, as docs/operations.md says). There the
 * seeded teller signs in with the password, sees every restored token in today's list, and issues
 * a new one (the grants, the sequences and the audit chain's trigger all work for the app role);
 * the seeded administrator signs in with the password and the authenticator code (its secret,
 * encrypted with AUTH_SECRET, came through the restore) and opens the staff list.
 *
 * Needs a build (`npx next build`, in the run's NEXT_DIST_DIR); the PostgreSQL half needs root (the
 * cluster runs as the `postgres` user): `npx vitest run --project drills test/drills/restore.drill.ts`.
 */

const secrets = drillSecrets();
let sandbox: { process: ChildProcess; url: string };
const running: { app: ChildProcess; url: string }[] = [];

/** Runs one of the operator's commands (`npm run <name>`'s script) and answers what it printed. */
function operatorCommand(script: string, args: string[], settings: Record<string, string>): string {
  try {
    return execFileSync("npx", ["tsx", "--conditions=react-server", `scripts/${script}.ts`, ...args], {
      cwd: repoRoot,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, APP_ENV: "test", LOG_LEVEL: "warn", ...settings },
    });
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${script} ${args.join(" ")} failed: ${failed.message}\n${failed.stdout ?? ""}\n${failed.stderr ?? ""}`);
  }
}

async function startAppOn(settings: Record<string, string>): Promise<string> {
  const url = `http://127.0.0.1:${await freePort()}`;
  const app = startApp(url, { ...secrets, UPSTREAM_BASE_URL: sandbox.url, ...settings });
  running.push({ app, url });
  await waitFor(() => isReady(url), 120_000, "the app to be ready");
  return url;
}

async function stopApps(): Promise<void> {
  for (const { app, url } of running.splice(0)) {
    await stopProcess(app);
    // Whatever a failed run left serving (a server outlives its supervisor's SIGKILL).
    killAppHard(app, url);
  }
}

/** Issues a few tokens as the seeded teller; answers the tokens the provider issued for them. */
async function issueSome(appUrl: string): Promise<string[]> {
  const before = (await tokensIssuedAt(sandbox.url)).length;
  const cookie = await signInTeller(appUrl);
  const tally = await issueUntil(appUrl, cookie, Date.now() + 3_000, 2);
  expect(tally.refused, "every issuing attempt answered issued").toEqual(new Map());
  expect(tally.issued).toBeGreaterThan(0);
  return (await tokensIssuedAt(sandbox.url)).slice(before).map((entry) => entry.token);
}

/** "Counts: 9 staff, 31 tokens, 120 audit events" and the audit head, as the commands print them. */
function countsOf(output: string): { staff: number; tokens: number; auditEvents: number; head: string } {
  const counts = /Counts: (\d+) staff, (\d+) tokens, (\d+) audit events/.exec(output);
  const head = /Head: (chain_seq \S+, hash \w+)/.exec(output);
  if (!counts || !head) throw new Error(`no counts or audit head in:\n${output}`);
  return { staff: Number(counts[1]), tokens: Number(counts[2]), auditEvents: Number(counts[3]), head: head[1]! };
}

/** The session cookies of a sign-in: the password, then the authenticator's code when asked. */
async function signInWithSecondFactor(appUrl: string, username: string): Promise<string> {
  const cookiesOf = (response: Response) => response.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");
  const password = await fetch(`${appUrl}/api/auth/sign-in/username`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: appUrl },
    body: JSON.stringify({ username, password: "veridesk-demo" }),
  });
  expect(password.status, `password of ${username}`).toBe(200);
  expect(((await password.json()) as { twoFactorRedirect?: boolean }).twoFactorRedirect, `${username} is asked for the second factor`).toBe(true);
  const code = await fetch(`${appUrl}/api/auth/two-factor/verify-totp`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: appUrl, cookie: cookiesOf(password) },
    body: JSON.stringify({ code: totpCode(base32Decode(DEMO_AUTHENTICATOR_SECRET), totpStepAt(Date.now())) }),
  });
  expect(code.status, `authenticator code of ${username}: ${await code.clone().text()}`).toBe(200);
  return cookiesOf(code);
}

/**
 * On the restored copy: the seeded teller signs in with the password (a session written by the
 * app's role), today's list shows every restored token, and a new token is issued and recorded.
 */
async function proveUsable(appUrl: string, restoredTokens: string[]): Promise<void> {
  const cookie = await signInTeller(appUrl);
  const list = await fetch(`${appUrl}/tokens`, { headers: { cookie } });
  expect(list.status).toBe(200);
  const html = await list.text();
  expect(restoredTokens.filter((token) => !html.includes(token)), "restored tokens missing from today's list").toEqual([]);
  const before = (await tokensIssuedAt(sandbox.url)).length;
  const tally = await issueUntil(appUrl, cookie, Date.now() + 1_500, 1);
  expect(tally.refused, "issuing on the restored copy").toEqual(new Map());
  expect(tally.issued).toBeGreaterThan(0);
  expect((await tokensIssuedAt(sandbox.url)).length).toBe(before + tally.issued);

  const admin = await signInWithSecondFactor(appUrl, "admin");
  const staffList = await fetch(`${appUrl}/admin/staff`, { headers: { cookie: admin } });
  expect(staffList.status).toBe(200);
  expect(await staffList.text()).toContain("Ama Owusu");
}

beforeAll(async () => {
  sandbox = await startSandbox();
}, 60_000);

afterAll(async () => {
  await stopApps();
  await stopProcess(sandbox?.process);
});

describe("the embedded database: a backup taken while the app serves, restored into a fresh directory", () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(path.join(tmpdir(), "veridesk-drill-restore-"));
  });
  afterAll(async () => {
    await stopApps();
    rmSync(root, { recursive: true, force: true });
  });

  it("gives the same counts, a verified chain, a teller who signs in, sees the tokens and issues, an administrator with the second factor", async () => {
    const source = path.join(root, "pglite");
    const restored = path.join(root, "pglite-restored");
    const file = path.join(root, "veridesk.vbk");
    const sourceUrl = await startAppOn({ PGLITE_DATA_DIR: source });
    const tokens = await issueSome(sourceUrl);
    // Taken from the running app, through its control socket.
    const backedUp = operatorCommand("db-backup", ["--out", file], { ...secrets, PGLITE_DATA_DIR: source });
    expect(backedUp).toMatch(/Taken from the running app/);
    expect(backedUp).toMatch(/Audit chain verified/);
    await stopApps();

    const restoredOutput = operatorCommand("db-restore", ["--in", file, "--into", restored], { ...secrets, PGLITE_DATA_DIR: restored });
    expect(restoredOutput).toMatch(/Audit chain verified: \d+ events/);
    expect(restoredOutput).toMatch(/\(as in the backup\)/);
    expect(countsOf(restoredOutput)).toEqual(countsOf(backedUp));
    expect(countsOf(restoredOutput).tokens).toBeGreaterThanOrEqual(tokens.length);

    await proveUsable(await startAppOn({ PGLITE_DATA_DIR: restored }), tokens);
  }, 300_000);
});

const pgBin = existsSync("/usr/lib/postgresql") ? path.join("/usr/lib/postgresql", readdirSync("/usr/lib/postgresql").sort().at(-1)!, "bin") : null;
const canRunPostgres = pgBin !== null && process.getuid?.() === 0;

// The two roles of README "Two database roles": neither is a superuser.
const ADMIN = "drill_admin";
const OWNER = "drill_owner";
const APP = "drill_app";

describe.runIf(canRunPostgres)("PostgreSQL: pg_dump and pg_restore with the two roles, as docs/operations.md says", () => {
  let dir: string;
  let port: number;
  let ctl: (...args: string[]) => void;

  const asPostgres = (command: string, args: string[]) =>
    execFileSync("runuser", ["-u", "postgres", "--", command, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  const url = (role: string, database: string) => `postgres://${role}${role === APP ? `:${APP}` : ""}@127.0.0.1:${port}/${database}`;
  const tool = (name: string, args: string[]) => execFileSync(path.join(pgBin!, name), args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "veridesk-drill-restore-pg-"));
    chmodSync(dir, 0o755);
    chownSync(dir, Number(asPostgres("id", ["-u"]).trim()), Number(asPostgres("id", ["-g"]).trim()));
    port = await freePort();
    const data = path.join(dir, "data");
    asPostgres(path.join(pgBin!, "initdb"), ["-D", data, "-U", ADMIN, "--auth=trust", "-E", "UTF8", "--no-sync"]);
    ctl = (...args: string[]) => {
      asPostgres(path.join(pgBin!, "pg_ctl"), ["-D", data, "-l", path.join(dir, "server.log"), "-o", `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`, "-w", ...args]);
    };
    ctl("start");
    const admin = new pg.Client({ connectionString: url(ADMIN, "postgres") });
    await admin.connect();
    await admin.query(`CREATE ROLE ${OWNER} LOGIN`);
    await admin.query(`CREATE ROLE ${APP} LOGIN PASSWORD '${APP}'`);
    await admin.query(`CREATE DATABASE veridesk OWNER ${OWNER}`);
    await admin.end();
  }, 60_000);

  afterAll(async () => {
    await stopApps();
    try {
      ctl?.("stop", "-m", "immediate");
    } catch {
      // Stopped already.
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("restores into an empty database where, as the app role, a teller signs in, sees the tokens and issues, and an administrator signs in with the second factor", async () => {
    const sourceUrl = await startAppOn({ DATABASE_URL: url(APP, "veridesk"), MIGRATION_DATABASE_URL: url(OWNER, "veridesk") });
    const tokens = await issueSome(sourceUrl);
    // Stopped first: the watcher of a running app would go on writing the tokens' news.
    await stopApps();
    const sourceCheck = operatorCommand("db-restore", ["--check"], { ...secrets, DATABASE_URL: url(APP, "veridesk") });

    const dump = path.join(dir, "veridesk.dump");
    tool("pg_dump", ["--format=custom", "--no-owner", "--no-privileges", `--file=${dump}`, url(OWNER, "veridesk")]);
    tool("createdb", ["--host=127.0.0.1", `--port=${port}`, `--username=${ADMIN}`, `--owner=${OWNER}`, "veridesk_restored"]);
    tool("pg_restore", ["--no-owner", "--no-privileges", "--exit-on-error", "--single-transaction", `--dbname=${url(OWNER, "veridesk_restored")}`, dump]);
    operatorCommand("db-migrate", [], { ...secrets, MIGRATION_DATABASE_URL: url(OWNER, "veridesk_restored"), DATABASE_URL: url(APP, "veridesk_restored") });
    const restoredCheck = operatorCommand("db-restore", ["--check"], { ...secrets, DATABASE_URL: url(APP, "veridesk_restored") });
    // The same counts and the same audit head as the source's.
    expect(countsOf(restoredCheck)).toEqual(countsOf(sourceCheck));
    expect(countsOf(restoredCheck).tokens).toBeGreaterThanOrEqual(tokens.length);

    // The app on the restored database with its own role only: the owner's URL stays out.
    await proveUsable(await startAppOn({ DATABASE_URL: url(APP, "veridesk_restored") }), tokens);
  }, 300_000);
});
