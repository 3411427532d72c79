/**
 * `npm run bench:instances` (ADR 0024, never part of `npm test`): does a second instance add
 * throughput? Two built instances (`next start`) on one scratch PostgreSQL database, and two nginx
 * processes rendered from deploy/nginx — one sending everything to instance A, one spreading over
 * A and B, both with TLS as in production. The poll routes are loaded through each in interleaved
 * rounds (one, two, one, two, …) with the same session, and the ratio printed.
 *
 *   TEST_DATABASE_URL=postgres://… npm run bench:instances     (run `npx next build` first)
 *   BENCH_SECONDS=5 BENCH_ROUNDS=3 BENCH_CONNECTIONS=20 npm run bench:instances
 *
 * Each instance is capped at BENCH_INSTANCE_CPU cores (default 0.5) by a cpu cgroup
 * (bench/support/cpu-cap.ts; needs root): uncapped on two shared cores, one instance already took
 * what the load, nginx and PostgreSQL needed, and "two ÷ one" measured the machine (1.06–1.52×).
 * Capped, one instance has half a core and two have one, and the rest is left to everything else.
 * BENCH_INSTANCE_CPU=0 runs without caps.
 *
 * Issuing is not loaded here: every issue calls the provider, and the sandbox on the same two
 * cores would be measured more than the app.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { renderNginxConfig } from "@/deploy/render-nginx";
import { createCpuCap, type CpuCap } from "./support/cpu-cap";
import { agentFor, killGroup, load, loadAverage, mergeStatuses, percentile, rate, repoRoot, run, signIn, waitForUrl, type Sample } from "./support/http-load";

// Next sends anonymous usage data unless told not to; a bank's servers send nothing out (docs/operations.md).
process.env.NEXT_TELEMETRY_DISABLED = "1";

const basePort = Number(process.env.BENCH_INSTANCES_PORT ?? 3360);
const ports = { a: basePort + 1, b: basePort + 2, nginxOne: basePort + 10, nginxTwo: basePort + 11, sandbox: basePort + 20 };
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
const nginxPath = process.env.NGINX_PATH ?? "/usr/sbin/nginx";
const coresPerInstance = Number(process.env.BENCH_INSTANCE_CPU ?? 0.5);
const children: ChildProcess[] = [];

function start(command: string, args: string[], environment: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(command, args, { cwd: repoRoot, env: environment, stdio: "ignore", detached: true });
  children.push(child);
  return child;
}

/** An nginx of its own (prefix, pid, logs) listening on `port` with TLS, in front of `instances`. */
function startNginx(dir: string, name: string, port: number, instances: number[]): void {
  const prefix = path.join(dir, name);
  execFileSync("mkdir", ["-p", prefix]);
  writeFileSync(
    path.join(prefix, "veridesk.conf"),
    renderNginxConfig({
      instances: instances.map((instancePort) => `127.0.0.1:${instancePort}`),
      listen: `127.0.0.1:${port}`,
      serverName: "127.0.0.1",
      certificate: path.join(dir, "tls.pem"),
      certificateKey: path.join(dir, "tls.key"),
      accessLog: "off",
      // No access log here: writing it would be measured too.
    }).replace("access_log off veridesk;", "access_log off;"),
  );
  writeFileSync(
    path.join(prefix, "nginx.conf"),
    `worker_processes 1;\npid ${path.join(prefix, "nginx.pid")};\nevents { worker_connections 1024; }\nhttp { include ${path.join(prefix, "veridesk.conf")}; }\n`,
  );
  start(nginxPath, ["-p", `${prefix}/`, "-c", path.join(prefix, "nginx.conf"), "-e", path.join(prefix, "error.log"), "-g", "daemon off;"], process.env);
}

async function main(): Promise<void> {
  const ownerUrl = process.env.TEST_DATABASE_URL;
  if (!ownerUrl) throw new Error("Set TEST_DATABASE_URL (e.g. from `bash scripts/ci-postgres.sh`): two instances need PostgreSQL.");
  console.log(`Two instances behind nginx — ${new Date().toISOString()}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, Node ${process.version}`);
  console.log(`load average before: ${loadAverage()}   (${connections} connections, ${rounds} interleaved rounds of ${seconds} s)`);
  console.log(coresPerInstance > 0 ? `each instance capped at ${coresPerInstance} core by a cpu cgroup` : "instances not capped (BENCH_INSTANCE_CPU=0)");
  const caps: CpuCap[] = [];

  const dir = mkdtempSync(path.join(os.tmpdir(), "veridesk-bench-instances-"));
  chmodSync(dir, 0o755);
  execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1", "-keyout", path.join(dir, "tls.key"), "-out", path.join(dir, "tls.pem")], { stdio: "ignore" });
  const databaseName = `veridesk_bench_instances_${Date.now()}`;
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: ownerUrl });
    await client.connect();
    await client.query(text).finally(() => client.end());
  };
  await admin(`CREATE DATABASE "${databaseName}"`);
  const databaseUrl = new URL(ownerUrl);
  databaseUrl.pathname = `/${databaseName}`;

  const publicUrl = (port: number) => `https://127.0.0.1:${port}`;
  const appEnv = (port: number, appUrl: string): NodeJS.ProcessEnv => ({
    ...process.env,
    APP_ENV: "local",
    PORT: String(port),
    APP_URL: appUrl,
    DATABASE_URL: databaseUrl.toString(),
    UPSTREAM_BASE_URL: `http://127.0.0.1:${ports.sandbox}`,
    TRUSTED_PROXY_HOPS: "1",
    WATCHER_ENABLED: "false",
    RETENTION_JOB_ENABLED: "false",
    LOG_LEVEL: "warn",
  });
  try {
    start("npx", ["tsx", "sandbox/server.ts"], { ...process.env, SANDBOX_PORT: String(ports.sandbox) });
    await waitForUrl(`http://127.0.0.1:${ports.sandbox}/sandbox/api/clock`);
    const setupEnv = appEnv(ports.a, publicUrl(ports.nginxOne));
    const tsx = ["tsx", "--conditions=react-server"];
    run("npx", [...tsx, "scripts/db-migrate.ts"], setupEnv);
    run("npx", [...tsx, "scripts/db-seed.ts", "--if-empty"], setupEnv);
    const tokenId = /BENCH_TOKEN_ID=([0-9a-f-]+)/.exec(run("npx", [...tsx, "bench/http-seed.ts"], setupEnv))?.[1];
    if (!tokenId) throw new Error("seeding printed no token id");

    // Both nginx fronts share one APP_URL origin check per instance: the instances accept either.
    for (const [name, instancePort, front] of [["a", ports.a, ports.nginxOne], ["b", ports.b, ports.nginxTwo]] as const) {
      const command = { command: "npx", args: ["next", "start", "--port", String(instancePort), "--hostname", "127.0.0.1"] };
      const cap = coresPerInstance > 0 ? createCpuCap(`veridesk-bench-${name}`, coresPerInstance) : null;
      if (cap) caps.push(cap);
      const capped = cap ? cap.wrap(command.command, command.args) : command;
      start(capped.command, capped.args, appEnv(instancePort, publicUrl(front)));
    }
    await Promise.all([waitForUrl(`http://127.0.0.1:${ports.a}/sign-in`, 120_000), waitForUrl(`http://127.0.0.1:${ports.b}/sign-in`, 120_000)]);
    startNginx(dir, "one", ports.nginxOne, [ports.a]);
    startNginx(dir, "two", ports.nginxTwo, [ports.a, ports.b]);
    process.env.NODE_TLS_REJECT_UNAUTHORIZED = "0";
    await Promise.all([waitForUrl(`${publicUrl(ports.nginxOne)}/api/health/live`), waitForUrl(`${publicUrl(ports.nginxTwo)}/api/health/live`)]);

    // The session lives in the database: one sign-in serves both fronts.
    const cookie = await signIn(publicUrl(ports.nginxOne), "teller.accra", "veridesk-demo");
    const fronts = {
      "one instance": { baseUrl: publicUrl(ports.nginxOne), agent: agentFor(publicUrl(ports.nginxOne), connections), connections },
      "two instances": { baseUrl: publicUrl(ports.nginxTwo), agent: agentFor(publicUrl(ports.nginxTwo), connections), connections },
    };
    const routes = { "token (no ETag)": `/api/tokens/${tokenId}`, "today list (no ETag)": "/api/tokens?scope=today" };
    for (const [routeName, urlPath] of Object.entries(routes)) {
      const samples = new Map<string, Sample[]>();
      for (const front of Object.values(fronts)) await load(front, urlPath, cookie, false, 1);
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
    for (const cap of caps) console.log(`instance ${cap.name}: throttled in ${((cap.throttledShare() ?? 0) * 100).toFixed(0)} % of its periods`);
  } finally {
    for (const child of children.reverse()) killGroup(child);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    for (const cap of caps) cap.remove();
    await admin(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
