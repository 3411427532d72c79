/**
 * Two built instances (`next start`) on one scratch PostgreSQL database, the sandbox, and nginx
 * fronts rendered from deploy/nginx with TLS as in production: what bench:instances and
 * bench:bank-day both stand up. Each instance may be capped to a share of a core by a cpu cgroup
 * (cpu-cap.ts). Benchmarks only.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { renderNginxConfig } from "@/deploy/render-nginx";
import { createCpuCap, type CpuCap } from "./cpu-cap";
import { killGroup, repoRoot, run, waitForUrl } from "./http-load";

// Next sends anonymous usage data unless told not to; a bank's servers send nothing out (docs/operations.md).
process.env.NEXT_TELEMETRY_DISABLED = "1";

export type InstanceName = "a" | "b";
export type Instances = {
  sandboxUrl: string;
  /** The https URL of each front, by the name it was asked for. */
  fronts: Record<string, string>;
  /** What `bench/http-seed.ts` printed (a token id to poll). */
  seededTokenId: string;
  caps: CpuCap[];
  /** Resident memory of each instance's processes, in MB (read from its cgroup; null without caps). */
  memoryMb: () => Record<InstanceName, number | null>;
  stop: () => Promise<void>;
};

export async function startInstances(options: {
  ownerUrl: string;
  basePort: number;
  coresPerInstance: number;
  /** Front name → the instances behind it. */
  fronts: Record<string, InstanceName[]>;
  appSettings?: Record<string, string>;
  nginxPath?: string;
}): Promise<Instances> {
  const { ownerUrl, basePort, coresPerInstance } = options;
  const ports = { a: basePort + 1, b: basePort + 2, sandbox: basePort + 20 };
  const frontPorts = Object.fromEntries(Object.keys(options.fronts).map((name, index) => [name, basePort + 10 + index]));
  const children: ChildProcess[] = [];
  const caps: CpuCap[] = [];
  const capOf: Partial<Record<InstanceName, CpuCap>> = {};
  const start = (command: string, args: string[], environment: NodeJS.ProcessEnv) => {
    const child = spawn(command, args, { cwd: repoRoot, env: environment, stdio: "ignore", detached: true });
    children.push(child);
    return child;
  };

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
  // Both instances accept the origin of the first front behind them; the benchmarks send that one.
  const frontOf = (instance: InstanceName) => Object.entries(options.fronts).find(([, behind]) => behind.includes(instance))?.[0];
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
    ...options.appSettings,
  });
  const stop = async () => {
    for (const child of children.reverse()) killGroup(child);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    for (const cap of caps) cap.remove();
    await admin(`DROP DATABASE IF EXISTS "${databaseName}" WITH (FORCE)`).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    start("npx", ["tsx", "sandbox/server.ts"], { ...process.env, SANDBOX_PORT: String(ports.sandbox) });
    await waitForUrl(`http://127.0.0.1:${ports.sandbox}/sandbox/api/clock`);
    const firstFront = frontPorts[Object.keys(options.fronts)[0]!]!;
    const setupEnv = appEnv(ports.a, publicUrl(firstFront));
    const tsx = ["tsx", "--conditions=react-server"];
    run("npx", [...tsx, "scripts/db-migrate.ts"], setupEnv);
    run("npx", [...tsx, "scripts/db-seed.ts", "--if-empty"], setupEnv);
    const seededTokenId = /BENCH_TOKEN_ID=([0-9a-f-]+)/.exec(run("npx", [...tsx, "bench/http-seed.ts"], setupEnv))?.[1];
    if (!seededTokenId) throw new Error("seeding printed no token id");

    const instances = [...new Set(Object.values(options.fronts).flat())];
    for (const instance of instances) {
      const command = { command: "npx", args: ["next", "start", "--port", String(ports[instance]), "--hostname", "127.0.0.1"] };
      const cap = coresPerInstance > 0 ? createCpuCap(`veridesk-bench-${instance}`, coresPerInstance) : null;
      if (cap) {
        caps.push(cap);
        capOf[instance] = cap;
      }
      const capped = cap ? cap.wrap(command.command, command.args) : command;
      start(capped.command, capped.args, appEnv(ports[instance], publicUrl(frontPorts[frontOf(instance)!]!)));
    }
    await Promise.all(instances.map((instance) => waitForUrl(`http://127.0.0.1:${ports[instance]}/sign-in`, 120_000)));
    for (const [name, behind] of Object.entries(options.fronts)) {
      startNginx(dir, name, frontPorts[name]!, behind.map((instance) => ports[instance]), options.nginxPath ?? "/usr/sbin/nginx", start);
    }
    process.env.NODE_TLS_REJECT_UNAUTHORIZED = "0";
    const fronts = Object.fromEntries(Object.keys(options.fronts).map((name) => [name, publicUrl(frontPorts[name]!)]));
    await Promise.all(Object.values(fronts).map((url) => waitForUrl(`${url}/api/health/live`)));
    return {
      sandboxUrl: `http://127.0.0.1:${ports.sandbox}`,
      fronts,
      seededTokenId,
      caps,
      memoryMb: () => ({ a: residentMb(capOf.a), b: residentMb(capOf.b) }),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The resident memory of every process in a cap's group, in MB. */
function residentMb(cap: CpuCap | undefined): number | null {
  if (!cap) return null;
  let kb = 0;
  for (const pid of cap.pids()) {
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return kb / 1024;
}

/** An nginx of its own (prefix, pid, logs) listening on `port` with TLS, in front of `instancePorts`. */
function startNginx(dir: string, name: string, port: number, instancePorts: number[], nginxPath: string, start: (command: string, args: string[], environment: NodeJS.ProcessEnv) => ChildProcess): void {
  const prefix = path.join(dir, name);
  execFileSync("mkdir", ["-p", prefix]);
  writeFileSync(
    path.join(prefix, "veridesk.conf"),
    renderNginxConfig({
      instances: instancePorts.map((instancePort) => `127.0.0.1:${instancePort}`),
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
