import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { MINIMUM_NODE_VERSION, unsupportedNodeMessage } from "@/lib/runtime";

/**
 * The machines this project runs on keep an older Node.js as the system one (/usr/bin/node, 20 on
 * Debian's images): started with it, every entry script refuses with the one sentence and exits 1
 * before it builds, migrates or opens a port.
 */
const systemNode = "/usr/bin/node";
const systemVersion = existsSync(systemNode) ? spawnSync(systemNode, ["-p", "process.versions.node"], { encoding: "utf8" }).stdout.trim() : "";
const systemNodeIsOlder = systemVersion !== "" && unsupportedNodeMessage(systemVersion) !== null;

describe.skipIf(!systemNodeIsOlder)(`a start on the system's Node.js ${systemVersion} (older than ${MINIMUM_NODE_VERSION})`, () => {
  for (const script of ["scripts/start.ts", "scripts/serve-app.ts", "scripts/test.ts", "scripts/sbom.ts"]) {
    it(`${script} refuses with one sentence and exit code 1`, () => {
      const result = spawnSync(systemNode, ["node_modules/tsx/dist/cli.mjs", script], {
        encoding: "utf8",
        env: { ...process.env, PATH: "/usr/bin:/bin", PORT: "3999", SANDBOX_PORT: "3998" },
        timeout: 30_000,
      });
      expect(result.status).toBe(1);
      expect(result.stderr.trim()).toBe(unsupportedNodeMessage(systemVersion));
      expect(result.stdout).toBe("");
    });
  }
});
