/**
 * `npm run bench:bank-day` (never part of `npm test`): a bank's day, compressed. Two instances,
 * each capped at half a core, on PostgreSQL behind nginx (bench/support/instances.ts), with the
 * watcher on in both; simulated tellers issue fingerprint tokens through the issuing action, as the
 * form does, at a steady rate, open each token's page and poll it as the live page does until its
 * result shows; the customer at the reader decides each one a few seconds after it is issued (the
 * sandbox's controls); a supervisor reads the review pages. Printed: p95 of pages, polls and
 * issuing, the outcome delay (decided at the service → shown to the teller), status calls per
 * token at the service, each instance's memory at the start and the end, and every error.
 *
 *   TEST_DATABASE_URL=postgres://… npm run bench:bank-day           (run `npx next build` first)
 *   BENCH_DAY_MINUTES=10 BENCH_TELLERS=12 BENCH_ISSUE_EVERY_S=20 npm run bench:bank-day
 */
import { randomUUID } from "node:crypto";
import os from "node:os";
import { postServerAction, resolveAction } from "@/e2e/support/action-calls";
import { fingerprintSubmission } from "@/test/kit/submissions";
import { startInstances } from "./support/instances";
import { loadAverage, percentile, signIn } from "./support/http-load";

const minutes = Number(process.env.BENCH_DAY_MINUTES ?? 10);
const tellerCount = Number(process.env.BENCH_TELLERS ?? 12);
const issueEverySeconds = Number(process.env.BENCH_ISSUE_EVERY_S ?? 20);
const coresPerInstance = Number(process.env.BENCH_INSTANCE_CPU ?? 0.5);
/** The live page's poll while a token is open (components/token-live): every 2 s. */
const POLL_MS = 2_000;

type Timings = { issue: number[]; page: number[]; poll: number[]; review: number[]; outcomeDelay: number[] };
const timings: Timings = { issue: [], page: [], poll: [], review: [], outcomeDelay: [] };
const errors: string[] = [];
let issued = 0;
let decided = 0;
let seen = 0;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const jittered = (meanMs: number) => meanMs * (0.5 + Math.random());

/** Times a request (a page's headers, or a whole action call with its answer read) and notes any error. */
async function timed<Answer extends { status: number }>(list: number[], label: string, request: () => Promise<Answer>): Promise<Answer | null> {
  const startedAt = performance.now();
  try {
    const response = await request();
    list.push(performance.now() - startedAt);
    if ((response.status < 200 || response.status > 299) && response.status !== 304) errors.push(`${label}: ${response.status}`);
    return response;
  } catch (error) {
    errors.push(`${label}: ${(error as Error).message}`);
    return null;
  }
}

async function main(): Promise<void> {
  const ownerUrl = process.env.TEST_DATABASE_URL;
  if (!ownerUrl) throw new Error("Set TEST_DATABASE_URL (e.g. from `bash scripts/ci-postgres.sh`): two instances need PostgreSQL.");
  console.log(`A bank's day, compressed — ${new Date().toISOString()}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, Node ${process.version}`);
  console.log(`${minutes} min, ${tellerCount} tellers issuing every ~${issueEverySeconds} s each, 1 supervisor; instances capped at ${coresPerInstance} core; load average before: ${loadAverage()}`);
  const instances = await startInstances({
    ownerUrl,
    basePort: Number(process.env.BENCH_INSTANCES_PORT ?? 3460),
    coresPerInstance,
    fronts: { bank: ["a", "b"] },
    appSettings: { WATCHER_ENABLED: "true" },
    nginxPath: process.env.NGINX_PATH,
  });
  const bank = instances.fronts.bank!;
  const issueAction = resolveAction({ file: "app/(staff)/tokens/new/fingerprint/actions.ts", name: "issueFingerprintTokenAction" });
  try {
    const memoryAtStart = instances.memoryMb();
    const callsBefore = await sandboxCalls(instances.sandboxUrl, 0);
    const endAt = Date.now() + minutes * 60_000;
    const following: Promise<void>[] = [];

    // One session per account, shared by its simulated tellers: the lock-out counts password
    // checks in flight, and six at once for one account read as guessing (lib/auth/lockout.ts).
    const sessions = new Map<string, Promise<string>>();
    const sessionOf = (username: string) => {
      if (!sessions.has(username)) sessions.set(username, signIn(bank, username, "veridesk-demo"));
      return sessions.get(username)!;
    };
    const teller = async (index: number) => {
      const cookie = await sessionOf(index % 2 === 0 ? "teller.accra" : "teller.kumasi");
      await sleep(Math.random() * issueEverySeconds * 1000);
      while (Date.now() < endAt) {
        await timed(timings.page, "new token page", () => fetch(`${bank}/tokens/new/fingerprint`, { headers: { cookie } }));
        const answer = await timed(timings.issue, "issue", () => postServerAction(bank, cookie, issueAction, { ...fingerprintSubmission(), idempotencyKey: randomUUID() }));
        const result = answer?.result ?? null;
        const data = result?.data as { status?: string; tokenRequestId?: string; token?: string } | undefined;
        if (!result?.ok || data?.status !== "issued") {
          if (answer) errors.push(`issue: ${JSON.stringify(result).slice(0, 200)}`);
        } else {
          issued += 1;
          following.push(followToken(cookie, data.tokenRequestId!, data.token!));
        }
        await sleep(jittered(issueEverySeconds * 1000));
      }
    };

    const followToken = async (cookie: string, tokenId: string, token: string) => {
      await timed(timings.page, "token page", () => fetch(`${bank}/tokens/${tokenId}`, { headers: { cookie } }));
      // The customer puts a finger on the reader a few seconds later; the service decides.
      const decideAfter = 4_000 + Math.random() * 8_000;
      let decidedAt: number | null = null;
      const decision = sleep(decideAfter).then(async () => {
        await fetch(`${instances.sandboxUrl}/sandbox/api/tokens/${token}/use`, { method: "POST" });
        const response = await fetch(`${instances.sandboxUrl}/sandbox/api/tokens/${token}/result`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ status: Math.random() < 0.85 ? "SUCCESSFUL" : "FAILED" }),
        });
        if (!response.ok) errors.push(`sandbox decision: ${response.status} ${await response.text()}`);
        decidedAt = Date.now();
        decided += 1;
      });
      let etag: string | undefined;
      const giveUpAt = Date.now() + 120_000;
      while (Date.now() < giveUpAt) {
        await sleep(POLL_MS);
        const response = await timed(timings.poll, "poll", () => fetch(`${bank}/api/tokens/${tokenId}`, { headers: { cookie, ...(etag ? { "if-none-match": etag } : {}) } }));
        if (!response || response.status !== 200) continue;
        etag = response.headers.get("etag") ?? undefined;
        const body = (await response.json()) as { token?: { isFinal?: boolean } };
        if (body.token?.isFinal && decidedAt !== null) {
          timings.outcomeDelay.push(Date.now() - decidedAt);
          seen += 1;
          break;
        }
      }
      await decision;
    };

    const supervisor = async () => {
      const cookie = await signIn(bank, "supervisor.kumasi", "veridesk-demo");
      const pages = ["/review", "/review/figures", "/review/reconciliation", "/tokens"];
      while (Date.now() < endAt) {
        for (const page of pages) await timed(timings.review, `review ${page}`, () => fetch(`${bank}${page}`, { headers: { cookie } }));
        await sleep(jittered(15_000));
      }
    };

    await Promise.all([...Array.from({ length: tellerCount }, (_, index) => teller(index)), supervisor()]);
    await Promise.all(following);
    const memoryAtEnd = instances.memoryMb();
    const calls = await sandboxCalls(instances.sandboxUrl, callsBefore.lastId);
    const statusCalls = calls.entries.filter((call) => /check_token_status|token_status/.test(call.path)).length;

    const line = (label: string, list: number[]) =>
      console.log(`   ${label.padEnd(30)} n ${String(list.length).padStart(5)}   p50 ${percentile(list, 50).toFixed(0).padStart(5)} ms   p95 ${percentile(list, 95).toFixed(0).padStart(5)} ms`);
    console.log(`\ntokens issued ${issued}, decided ${decided}, result seen by the teller ${seen}`);
    line("issuing (action)", timings.issue);
    line("teller pages", timings.page);
    line("token polls (live page)", timings.poll);
    line("supervisor review pages", timings.review);
    line("outcome delay", timings.outcomeDelay);
    console.log(`   status calls at the service: ${statusCalls} (${issued ? (statusCalls / issued).toFixed(1) : "–"} per token)`);
    const mb = (value: number | null) => (value === null ? "–" : `${value.toFixed(0)} MB`);
    console.log(`   memory, instance a: ${mb(memoryAtStart.a)} → ${mb(memoryAtEnd.a)};  instance b: ${mb(memoryAtStart.b)} → ${mb(memoryAtEnd.b)}`);
    for (const cap of instances.caps) console.log(`   instance ${cap.name}: throttled in ${((cap.throttledShare() ?? 0) * 100).toFixed(0)} % of its periods`);
    console.log(`   errors: ${errors.length}${errors.length ? `\n     ${[...new Set(errors)].slice(0, 10).join("\n     ")}` : ""}`);
    console.log(`load average after: ${loadAverage()}`);
    if (errors.length > 0 || seen < issued) process.exitCode = 1;
  } finally {
    await instances.stop();
  }
}

async function sandboxCalls(sandboxUrl: string, since: number): Promise<{ lastId: number; entries: { id: number; path: string }[] }> {
  const { calls } = (await (await fetch(`${sandboxUrl}/sandbox/api/calls?since=${since}`)).json()) as { calls: { id: number; path: string }[] };
  return { lastId: calls.at(-1)?.id ?? since, entries: calls };
}

await main();
