// @ts-check
/**
 * Veridesk's layers, enforced by `npm run lint` (dependency-cruiser 17.4.x: the last line that runs
 * on Node 20; 18.x needs Node 22). This file is the picture of the architecture; ARCHITECTURE.md
 * shows the same table and points here. Lower layers never import higher ones:
 *
 *   base     lib/{env,env-defaults,logger,errors,request-context,bank-time,security-headers,client-ip,nudges,runtime}.ts,
 *            lib/support, lib/metrics, lib/domain (shared vocabulary: roles, token kinds, states, the ID types' descriptors)
 *   data     lib/db
 *   core     lib/upstream, lib/validation, lib/pii, lib/audit
 *   access   lib/auth
 *   domain   lib/staff, lib/compliance, lib/webhooks (the outbox the token's end writes into, its worker)
 *   tokens   lib/tokens
 *   readers  lib/watcher (the loop, polls, stores), lib/live (what the poll routes answer),
 *            lib/review, lib/operations, lib/risk (rules, alerts, cases): none imports another
 *   process  lib/server, lib/actions, lib/api (the integration API: keys, idempotency, rate limit, OpenAPI)
 *   ui       components/ui (no business words), components/<feature>
 *   routes   app/ (only Next imports it; server actions reach client components as props)
 *
 * Tests (*.test.ts, test/kit, e2e) are left out: they may import anything.
 */
const fs = require("node:fs");
const path = require("node:path");

const ROOT = __dirname;
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Files whose first statement is "use client": they run in the browser. */
function clientFiles() {
  const found = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.tsx?$/.test(entry.name) && /^\s*(\/\/[^\n]*\n\s*)*["']use client["']/.test(fs.readFileSync(full, "utf8"))) found.push(full);
    }
  };
  for (const dir of ["app", "components", "lib"]) if (fs.existsSync(path.join(ROOT, dir))) walk(path.join(ROOT, dir));
  return found.map((file) => `^${escape(path.relative(ROOT, file))}$`);
}

const TESTS = ["\\.test\\.tsx?$", "\\.spec\\.tsx?$", "^test/", "^e2e/"];
// lib/pii/mask.ts is base too: pure masking with no import, which the logger applies to free text.
const BASE = "^lib/(env|env-defaults|logger|errors|request-context|bank-time|security-headers|client-ip|nudges|runtime)\\.ts$|^lib/(support|metrics|domain)/|^lib/pii/mask\\.ts$";
const lib = (...folders) => `^lib/(${folders.join("|")})/`;
/** The composition roots: the only lib modules that open the process's own database (getDb). */
const DATABASE_ROOTS = [
  "^lib/db/",
  "^lib/auth/(server|session)\\.ts$", // better-auth's instance and the request's session
  "^lib/server/readiness\\.ts$", // the probe that asks whether the database answers
  "^lib/server/start\\.ts$", // the server's start: the backfill after opening, the heartbeat's database
  "^lib/watcher/(boot|viewers)\\.ts$", // the loop's start and the batched view writes
  "^lib/compliance/retention-schedule\\.ts$", // the scheduler
  "^lib/risk/boot\\.ts$", // the risk rules' loop
  "^lib/webhooks/boot\\.ts$", // the webhook delivery worker's start
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-folder-cycle",
      comment: "Folders depend one way. A cycle between two folders means one holds something the other should own.",
      severity: "error",
      scope: "folder",
      from: { path: "^(lib|components|app)/" },
      to: { circular: true },
    },
    { name: "no-file-cycle", severity: "error", from: {}, to: { circular: true } },
    {
      name: "base-imports-only-base",
      severity: "error",
      from: { path: BASE },
      to: { path: "^lib/", pathNot: BASE },
    },
    {
      name: "db-imports-nothing-above-it",
      severity: "error",
      from: { path: "^lib/db/" },
      to: { path: "^lib/", pathNot: [BASE, "^lib/db/"] },
    },
    {
      name: "core-below-auth",
      comment: "The service client, validation, personal-data crypto and the audit trail are used by auth and the features, never the reverse.",
      severity: "error",
      from: { path: lib("upstream", "validation", "pii", "audit") },
      to: { path: lib("auth", "staff", "compliance", "webhooks", "tokens", "watcher", "live", "review", "operations", "risk", "server", "actions", "api") },
    },
    {
      name: "auth-below-features",
      severity: "error",
      from: { path: lib("auth") },
      to: { path: lib("staff", "compliance", "webhooks", "tokens", "watcher", "live", "review", "operations", "risk", "server", "actions", "api") },
    },
    {
      name: "domain-below-tokens",
      comment: "Staff, compliance (purposes, consent, retention, erasure) and the webhook outbox are asked by issuing and the watcher, never the reverse.",
      severity: "error",
      from: { path: lib("staff", "compliance", "webhooks") },
      to: { path: lib("tokens", "watcher", "live", "review", "operations", "risk", "server", "actions", "api") },
    },
    {
      name: "tokens-below-readers",
      severity: "error",
      from: { path: lib("tokens") },
      to: { path: lib("watcher", "live", "review", "operations", "risk", "server", "actions", "api") },
    },
    {
      name: "watcher-is-the-loop",
      comment: "lib/watcher keeps the loop, the polls and the stores; what pages read is lib/live.",
      severity: "error",
      from: { path: lib("watcher") },
      to: { path: lib("live", "review", "operations", "risk", "server", "actions", "api") },
    },
    {
      name: "live-reads-the-database-only",
      severity: "error",
      from: { path: lib("live") },
      to: { path: lib("watcher", "review", "operations", "risk", "server", "actions", "api") },
    },
    {
      name: "review-reads-the-database-only",
      severity: "error",
      from: { path: lib("review", "operations") },
      to: { path: lib("watcher", "live", "risk", "server", "actions", "api") },
    },
    {
      name: "risk-reads-the-database-only",
      comment: "The risk rules read tokens and the audit trail from the database, never from another reader, so a backtest is the rule itself.",
      severity: "error",
      from: { path: lib("risk") },
      to: { path: lib("watcher", "live", "review", "operations", "server", "actions", "api") },
    },
    {
      name: "only-roots-open-the-database",
      comment: "A lib function that reads or writes takes the executor (lib/db/types DbExecutor) as its first argument; only the roots call getDb().",
      severity: "error",
      from: { path: "^lib/", pathNot: DATABASE_ROOTS },
      to: { path: "^lib/db/client\\.ts$" },
    },
    {
      name: "only-next-imports-app",
      comment: "Route folders are leaves. Server actions reach client components as props from the page.",
      severity: "error",
      from: { path: ["^(lib|components|scripts|bench|sandbox|deploy)/", "^(instrumentation|proxy)\\.ts$"] },
      to: { path: "^app/" },
    },
    {
      name: "ui-primitives-have-no-business",
      severity: "error",
      from: { path: "^components/ui/" },
      to: { path: ["^components/(?!ui/)", "^lib/", "^app/"], pathNot: ["^lib/validation/form-check\\.ts$", BASE] },
    },
    {
      name: "sandbox-is-independent",
      comment: "The imitation of the provider checks the client against the spec, not against itself.",
      severity: "error",
      from: { path: "^sandbox/" },
      to: { path: "^(?!sandbox/|node_modules/)", dependencyTypesNot: ["core"] },
    },
    {
      name: "nothing-imports-the-sandbox",
      severity: "error",
      from: { path: "^(lib|components|app)/" },
      to: { path: "^sandbox/" },
    },
    {
      name: "server-only-never-reaches-client",
      comment: "A \"use client\" file must not reach a module importing server-only, not even for a type: DTO types live in client-safe modules (lib/*/dto.ts).",
      severity: "error",
      from: { path: (() => { const files = clientFiles(); return files.length > 0 ? files : ["^$"]; })() },
      to: { path: "^node_modules/server-only/", reachable: true },
    },
  ],
  options: {
    doNotFollow: { path: "^node_modules" },
    exclude: { path: ["^\\.next", "^\\.data", "^drizzle/", "^test-results", "^playwright-report", ...TESTS] },
    includeOnly: { path: ["^(app|components|lib|sandbox|scripts|bench|deploy)/", "^(instrumentation|proxy)\\.ts$", "^node_modules/server-only/"] },
    // Type-only imports count: a type is a dependency too (lib/db/client ↔ prepared was one).
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json"],
    },
    skipAnalysisNotInRules: true,
  },
};
