import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { createServer } from "node:net";
import path from "node:path";
import { postServerAction, resolveAction } from "@/e2e/support/action-calls";
import { localBin } from "@/scripts/support/processes";
import { nextServerGroupsOnPort } from "./server-processes";
import { fingerprintSubmission } from "./submissions";

/**
 * The built app and the sandbox as real processes, and tellers issuing through the form's own
 * action, for the failure drills (test/drills): what they kill, restart and count. Needs a build
 * (`npx next build`, in the run's NEXT_DIST_DIR).
 */

export const repoRoot = path.resolve(import.meta.dirname, "..", "..");

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

/** A process in a group of its own, so a drill can signal it with everything it started. */
export function startProcess(command: string, args: string[], env: Record<string, string>): ChildProcess {
  return spawn(command, args, { cwd: repoRoot, env: { ...process.env, ...env }, stdio: "ignore", detached: true });
}

export function signalGroup(child: ChildProcess | undefined, signal: NodeJS.Signals = "SIGTERM"): void {
  if (child?.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

/**
 * Kills the app as a crash would: SIGKILL to `scripts/serve-app.ts` and to the `next start` it
 * runs in a group of its own (a signal to the first alone would leave the server running, since
 * it can no longer pass it on).
 */
export function killAppHard(app: ChildProcess, appUrl: string): void {
  const serverGroups = nextServerGroupsOnPort(new URL(appUrl).port);
  signalGroup(app, "SIGKILL");
  for (const group of serverGroups) {
    try {
      process.kill(-group, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
}

/** Stops a group as an operator would, then for good; answers once it has exited. */
export async function stopProcess(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  signalGroup(child, "SIGTERM");
  await Promise.race([exited, sleep(10_000)]);
  signalGroup(child, "SIGKILL");
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const giveUpAt = Date.now() + timeoutMs;
  while (Date.now() < giveUpAt) {
    if (await check().catch(() => false)) return;
    await sleep(250);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Fresh secrets for one drill's app (and the commands run on its database afterwards). */
export function drillSecrets(): Record<"AUTH_SECRET" | "PII_ENCRYPTION_KEY" | "PII_INDEX_KEY", string> {
  return {
    AUTH_SECRET: randomBytes(32).toString("base64"),
    PII_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    PII_INDEX_KEY: randomBytes(32).toString("base64"),
  };
}

/** Starts the sandbox on a free port; answers it and its URL once it answers. */
export async function startSandbox(): Promise<{ process: ChildProcess; url: string }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const sandbox = startProcess(localBin("tsx"), ["sandbox/server.ts"], { SANDBOX_PORT: String(port) });
  await waitFor(async () => (await fetch(`${url}/sandbox/api/clock`)).ok, 30_000, "the sandbox");
  return { process: sandbox, url };
}

/** `scripts/serve-app.ts` (prepare the database, then `next start`) with a test run's settings. */
export function startApp(appUrl: string, settings: Record<string, string>): ChildProcess {
  return startProcess(localBin("tsx"), ["--conditions=react-server", "scripts/serve-app.ts"], {
    APP_ENV: "test",
    PORT: new URL(appUrl).port,
    APP_URL: appUrl,
    E2E_SEED_DEMO: "",
    LOG_LEVEL: "warn",
    ...settings,
  });
}

export const isReady = async (appUrl: string) => (await fetch(`${appUrl}/api/health/ready`)).ok;

/** A demo teller's session cookie (the demo password of a test run). */
export async function signInTeller(appUrl: string, username = "teller.accra"): Promise<string> {
  const response = await fetch(`${appUrl}/api/auth/sign-in/username`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: appUrl },
    body: JSON.stringify({ username, password: "veridesk-demo" }),
  });
  if (!response.ok) throw new Error(`sign-in answered ${response.status}`);
  return response.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");
}

export type IssuingTally = { issued: number; refused: Map<string, number> };

/**
 * `tellers` loops issuing fingerprint tokens through the form's action until `endAt`, each new
 * customer a new Ghana Card; counts what the tellers were told (issued, or the refusal's code).
 */
export async function issueUntil(appUrl: string, cookie: string, endAt: number, tellers: number): Promise<IssuingTally> {
  const issue = resolveAction({ file: "app/(staff)/tokens/new/fingerprint/actions.ts", name: "issueFingerprintTokenAction" });
  const tally: IssuingTally = { issued: 0, refused: new Map() };
  const teller = async () => {
    while (Date.now() < endAt) {
      const call = await postServerAction(appUrl, cookie, issue, { ...fingerprintSubmission(), idempotencyKey: randomUUID() }).catch(() => null);
      const result = call?.result;
      if (result?.ok) tally.issued += 1;
      else {
        const why = result?.code ?? (call ? `http ${call.status}` : "no answer");
        tally.refused.set(why, (tally.refused.get(why) ?? 0) + 1);
      }
      await sleep(100);
    }
  };
  await Promise.all(Array.from({ length: tellers }, teller));
  return tally;
}

/** The tokens the provider issued, with what it was sent (the ID number), from the sandbox's own store. */
export async function tokensIssuedAt(sandboxUrl: string): Promise<{ token: string; request: Record<string, string> }[]> {
  const { tokens } = (await (await fetch(`${sandboxUrl}/sandbox/api/tokens`)).json()) as { tokens: { token: string; request: Record<string, string> }[] };
  return tokens;
}
