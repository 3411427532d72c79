/**
 * Lints the API's OpenAPI document as the app serves it (lib/api/openapi.ts):
 *
 *   npx tsx --conditions=react-server scripts/openapi-lint.ts
 *
 * Writes the document to a temporary file and runs `redocly lint` on it (its recommended rules,
 * offline: no registry, no telemetry). Exits with redocly's status: 0 only when it lints clean.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildOpenApiDocument } from "@/lib/api/openapi";

const directory = fs.mkdtempSync(path.join(os.tmpdir(), "veridesk-openapi-"));
try {
  const file = path.join(directory, "openapi.json");
  fs.writeFileSync(file, JSON.stringify(buildOpenApiDocument(), null, 2));
  const config = path.join(directory, "redocly.yaml");
  // The security scheme is a bearer key whose scopes are listed per operation (OpenAPI 3.1 allows
  // role names on any scheme); everything else is redocly's recommended set.
  fs.writeFileSync(config, "extends:\n  - recommended\nrules:\n  operation-4xx-response: error\n  no-server-example.com: error\n");
  const redocly = path.join(process.cwd(), "node_modules", ".bin", "redocly");
  const run = spawnSync(redocly, ["lint", file, "--config", config, "--max-problems", "50"], {
    stdio: "inherit",
    env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
  });
  if (run.error) throw run.error;
  process.exitCode = run.status ?? 1;
} finally {
  fs.rmSync(directory, { recursive: true, force: true });
}
