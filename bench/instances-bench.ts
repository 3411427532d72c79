/**
 * `npm run bench:instances` (ADR 0024, never part of `npm test`): does a second instance add
 * throughput? Two built instances (`next start`) on one scratch PostgreSQL database, and two nginx
 * processes rendered from deploy/nginx — one sending everything to instance A, one spreading over
 * A and B, both with TLS as in production (bench/support/instances.ts). The poll routes are loaded
 * through each in interleaved rounds (one, two, one, two, …) with the same session, and the ratio
 * printed.
 *
 *   TEST_DATABASE_URL=postgres://… npm run bench:instances     (run `npx next build` first)
 *   BENCH_SECONDS=5 BENCH_ROUNDS=3 BENCH_CONNECTIONS=20 npm run bench:instances
 *
 * Each instance is capped at BENCH_INSTANCE_CPU cores (default 0.5) by a cpu cgroup
 * (bench/support/cpu-cap.ts; needs root): uncapped on two shared cores, one instance already took
 * what the load, nginx and PostgreSQL needed, and "two ÷ one" measured the machine (1.06–1.52×).
 * Capped, one instance has half a core and two have one, and the rest is left to everything else.
 * BENCH_INSTANCE_CPU=0 runs without caps. Issuing under load is in bench:bank-day.
 */
import os from "node:os";
import { startInstances } from "./support/instances";
import { agentFor, load, loadAverage, mergeStatuses, percentile, rate, signIn, type Sample } from "./support/http-load";

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
const coresPerInstance = Number(process.env.BENCH_INSTANCE_CPU ?? 0.5);
const warmUpSeconds = Number(process.env.BENCH_WARM_UP_SECONDS ?? 8);

async function main(): Promise<void> {
  const ownerUrl = process.env.TEST_DATABASE_URL;
  if (!ownerUrl) throw new Error("Set TEST_DATABASE_URL (e.g. from `bash scripts/ci-postgres.sh`): two instances need PostgreSQL.");
  console.log(`Two instances behind nginx — ${new Date().toISOString()}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, Node ${process.version}`);
  console.log(`load average before: ${loadAverage()}   (${connections} connections, ${rounds} interleaved rounds of ${seconds} s)`);
  console.log(coresPerInstance > 0 ? `each instance capped at ${coresPerInstance} core by a cpu cgroup` : "instances not capped (BENCH_INSTANCE_CPU=0)");

  const instances = await startInstances({
    ownerUrl,
    basePort: Number(process.env.BENCH_INSTANCES_PORT ?? 3360),
    coresPerInstance,
    fronts: { one: ["a"], two: ["a", "b"] },
    nginxPath: process.env.NGINX_PATH,
  });
  try {
    // The session lives in the database: one sign-in serves both fronts.
    const cookie = await signIn(instances.fronts.one!, "teller.accra", "veridesk-demo");
    const fronts = {
      "one instance": { baseUrl: instances.fronts.one!, agent: agentFor(instances.fronts.one!, connections), connections },
      "two instances": { baseUrl: instances.fronts.two!, agent: agentFor(instances.fronts.two!, connections), connections },
    };
    const routes = { "token (no ETag)": `/api/tokens/${instances.seededTokenId}`, "today list (no ETag)": "/api/tokens?scope=today" };
    for (const [routeName, urlPath] of Object.entries(routes)) {
      const samples = new Map<string, Sample[]>();
      // Warm both instances first (capped at half a core, a cold one takes seconds to reach its pace):
      // through the two-instance front, which reaches both, then the one-instance front.
      for (const front of [fronts["two instances"], fronts["one instance"]]) await load(front, urlPath, cookie, false, warmUpSeconds);
      for (let round = 0; round < rounds; round += 1) {
        for (const [frontName, front] of Object.entries(fronts)) {
          samples.set(frontName, [...(samples.get(frontName) ?? []), await load(front, urlPath, cookie, false, seconds)]);
        }
      }
      console.log(`\n${routeName}: req/s per round, p50 / p95`);
      for (const [frontName, list] of samples) {
        const all = list.flatMap((sample) => sample.latencies);
        const statuses = [...mergeStatuses(list)].map(([status, n]) => `${status}×${n}`).join(" ");
        console.log(`   ${frontName.padEnd(14)} ${list.map((sample) => rate(sample).toFixed(0)).join(" / ").padEnd(18)} p50 ${percentile(all, 50).toFixed(1)} ms  p95 ${percentile(all, 95).toFixed(1)} ms  [${statuses}]`);
      }
      const one = samples.get("one instance")!.map(rate);
      const two = samples.get("two instances")!.map(rate);
      const ratios = two.map((value, index) => value / one[index]!);
      console.log(`   two ÷ one: ${ratios.map((ratio) => ratio.toFixed(2)).join(" / ")}  (goal ≥ 1.8)`);
    }
    console.log(`\nload average after: ${loadAverage()}`);
    for (const cap of instances.caps) console.log(`instance ${cap.name}: throttled in ${((cap.throttledShare() ?? 0) * 100).toFixed(0)} % of its periods`);
  } finally {
    await instances.stop();
  }
}

await main();
