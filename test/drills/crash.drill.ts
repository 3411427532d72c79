import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Env } from "@/lib/env";
import { computeIdNumberIndex } from "@/lib/pii/blind-index";
import { resolvePiiKeys } from "@/lib/pii/keys";
import {
  drillSecrets,
  freePort,
  isReady,
  issueUntil,
  killAppHard,
  signInTeller,
  sleep,
  startApp,
  startSandbox,
  stopProcess,
  tokensIssuedAt,
  waitFor,
  type IssuingTally,
} from "@/test/kit/app-process";

/**
 * The process dies under load (the embedded database): four tellers issue fingerprint tokens
 * without pause while the app is killed with SIGKILL — no shutdown, nothing flushed — three
 * times, each time started again on the same data directory (as the systemd unit would). At the
 * end every token the provider issued is in the database, or (when the answer died with the
 * process) its attempt is, written before the call and turning "outcome unknown" by itself, so the
 * token from the customer's SMS can be entered against it (ADR 0043); and the audit chain
 * verifies on the crashed directory.
 *
 * Needs a build: `npx vitest run --project drills test/drills/crash.drill.ts`.
 */

const KILLS = 3;
let dataDir: string;
let sandbox: { process: ChildProcess; url: string };
let app: ChildProcess;
let appUrl: string;
const secrets = drillSecrets();
const settings = () => ({ ...secrets, PGLITE_DATA_DIR: dataDir, UPSTREAM_BASE_URL: sandbox.url, UPSTREAM_ISSUE_TIMEOUT_MS: "8000" });

describe("the app killed with SIGKILL under load, three times", () => {
  beforeAll(async () => {
    dataDir = path.join(mkdtempSync(path.join(tmpdir(), "veridesk-drill-crash-")), "pglite");
    sandbox = await startSandbox();
    appUrl = `http://127.0.0.1:${await freePort()}`;
    app = startApp(appUrl, settings());
    await waitFor(() => isReady(appUrl), 120_000, "the app to be ready");
  }, 180_000);

  afterAll(async () => {
    await Promise.all([stopProcess(app), stopProcess(sandbox?.process)]);
    // Whatever a failed run left serving (a server outlives its supervisor's SIGKILL).
    if (app) killAppHard(app, appUrl);
    rmSync(path.dirname(dataDir), { recursive: true, force: true });
  });

  it("loses no issued token and keeps the audit chain whole", async () => {
    const cookie = await signInTeller(appUrl);
    const tallies: IssuingTally[] = [];
    for (let kill = 0; kill < KILLS; kill += 1) {
      const load = issueUntil(appUrl, cookie, Date.now() + 8_000, 4);
      await sleep(4_000 + Math.random() * 3_000);
      killAppHard(app, appUrl);
      await waitFor(async () => !(await isReady(appUrl).catch(() => false)), 10_000, "the killed app to stop answering");
      tallies.push(await load);
      app = startApp(appUrl, settings());
      await waitFor(() => isReady(appUrl), 120_000, `the app to be ready after kill ${kill + 1}`);
    }
    // The watcher of the restarted app settles what the dead one left open.
    tallies.push(await issueUntil(appUrl, cookie, Date.now() + 3_000, 2));
    const issued = await tokensIssuedAt(sandbox.url);
    await sleep(5_000);
    await stopProcess(app);

    // The directory is the app's alone while it runs: read it once the app has stopped.
    const { openDatabase } = await import("@/lib/db/client");
    const { verifyAuditChain } = await import("@/lib/audit/chain");
    // A stopped server's last process may take a moment to go, holding the directory's lock until then.
    let opened: Awaited<ReturnType<typeof openDatabase>> | undefined;
    await waitFor(
      async () => {
        opened = await openDatabase({ pgliteDataDir: dataDir, label: "crash drill" });
        return true;
      },
      30_000,
      "the stopped app to let go of its data directory",
    );
    if (!opened) throw new Error("the data directory never opened");
    try {
      const rows = (await opened!.db.execute(sql`SELECT token, id_number_index, outcome FROM token_requests`)) as unknown as {
        rows: { token: string | null; id_number_index: string | null; outcome: string }[];
      };
      const recorded = new Set(rows.rows.flatMap((row) => (row.token ? [row.token] : [])));
      const unrecorded = issued.filter((entry) => !recorded.has(entry.token));
      // A token whose answer died with the process cannot be in the database; its attempt, written
      // before the call, must be there, waiting to turn "outcome unknown" (or turned already), so
      // the token from the customer's SMS can be entered against it.
      const keys = resolvePiiKeys({ APP_ENV: "test", PII_ENCRYPTION_KEY: secrets.PII_ENCRYPTION_KEY, PII_INDEX_KEY: secrets.PII_INDEX_KEY } as Env);
      const attemptOf = (idNumber: string | undefined) => rows.rows.find((row) => idNumber && row.id_number_index === computeIdNumberIndex(idNumber, keys));
      const lost = unrecorded.filter((entry) => !["pending", "outcome_unknown"].includes(attemptOf(entry.request.id_number)?.outcome ?? "none"));
      const told = tallies.reduce((sum, tally) => sum + tally.issued, 0);
      console.log(
        `crash drill: ${KILLS} kills, ${issued.length} issued at the provider, ${told} answered issued, ${issued.length - unrecorded.length} recorded, ${unrecorded.length} with the answer lost in a crash and the attempt awaiting the SMS token, lost ${lost.length}`,
      );
      // A busy machine issues few between kills; a handful is enough for the kills to land mid-issue.
      expect(issued.length).toBeGreaterThan(5);
      expect(lost.map((entry) => entry.token), "issued by the provider with no trace in the database").toEqual([]);
      const report = await verifyAuditChain(opened!.db);
      expect(report.firstBreak).toBeNull();
    } finally {
      await opened?.close();
    }
  }, 240_000);
});
