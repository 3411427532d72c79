import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { filesNeedingOwnProcess, integrationTestFiles, processStateIn, unitTestFiles } from "@/vitest.config";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

describe("which test files share a process (vitest.config.ts)", () => {
  it.each([
    ['useScratchProcessDatabase("auth-flow")'],
    ["process.env.PGLITE_DATA_DIR"],
    ['vi.mock("@/lib/db/client")'],
    ["vi.doMock('./x')"],
    ["await vi.hoisted(async () => undefined)"],
    ["vi.resetModules()"],
    ['vi.stubEnv("APP_ENV", "test")'],
    ['vi.stubGlobal("fetch", fake)'],
    ["vi.useFakeTimers()"],
    ['vi.spyOn(console, "error")'],
    ['process.env.DATABASE_URL = "postgres://…"'],
    ['process.env["WATCHER_ENABLED"] = "false"'],
    ["process.env[name] ??= value"],
    ["delete process.env[name]"],
    ["Object.assign(process.env, env)"],
    ['process.chdir("/tmp")'],
    ['process.on("unhandledRejection", handler)'],
    ["process.exitCode = 1"],
    ["globalThis.fetch = fake"],
    ["// vitest-own-process: fails after the watcher's tests"],
  ])("%s needs a process of its own", (source) => {
    expect(processStateIn(source)).not.toEqual([]);
  });

  it.each([
    ["const url = process.env.TEST_DATABASE_URL;"],
    ['if (process.env.TEST_DATABASE_URL === "x") {}'],
    ["const handler = vi.fn();"],
    ['await using scratch = await openScratchDatabase({ driver, name: "x" });'],
  ])("%s may share one", (source) => {
    expect(processStateIn(source)).toEqual([]);
  });

  it("isolates the files known to need it, by their markers, and shares the rest", () => {
    const integration = integrationTestFiles(repoRoot);
    const own = filesNeedingOwnProcess(repoRoot, integration);
    expect(integration.length).toBeGreaterThan(own.length);
    // Reads lib/env and the process's database once per process, with the environment it sets.
    expect(own).toContain("lib/server/readiness.integration.test.ts");
    expect(own).toContain("lib/auth/auth-flow.integration.test.ts");
    expect(own).not.toContain("lib/db/migrations.integration.test.ts");
    const unit = unitTestFiles(repoRoot);
    expect(unit).not.toContain("lib/db/migrations.integration.test.ts");
    // Sets APP_ENV, which lib/env reads.
    expect(filesNeedingOwnProcess(repoRoot, unit)).toContain("proxy.test.ts");
    for (const file of [...integration, ...unit]) {
      const markers = processStateIn(fs.readFileSync(path.join(repoRoot, file), "utf8"));
      expect(filesNeedingOwnProcess(repoRoot, [file]), `${file}: ${markers.join(", ") || "no process state"}`).toEqual(markers.length > 0 ? [file] : []);
    }
  });
});
