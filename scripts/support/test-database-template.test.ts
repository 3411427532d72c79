import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { copyTestDatabaseTemplate, templatePaths, templateSettingsStamp } from "./test-database-template";

const runSecrets = { AUTH_SECRET: "a".repeat(40) };
let work: string;
let root: string;

/** A template folder as make-test-database-template.ts leaves it, each template one marker file. */
function makeTemplates(): void {
  const paths = templatePaths(root);
  for (const which of ["migrated", "seeded"] as const) {
    fs.mkdirSync(paths[which], { recursive: true });
    fs.writeFileSync(path.join(paths[which], "PG_VERSION"), which);
  }
  fs.writeFileSync(paths.seededStamp, `${templateSettingsStamp(runSecrets)}\n`);
}
const copiedFrom = (dataDir: string) => fs.readFileSync(path.join(dataDir, "PG_VERSION"), "utf8");

beforeEach(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "veridesk-template-test-"));
  root = path.join(work, "template");
});
afterEach(() => fs.rmSync(work, { recursive: true, force: true }));

describe("copying the test run's database template", () => {
  it("gives an app with the run's secrets the seeded template", () => {
    makeTemplates();
    const dataDir = path.join(work, "app", "pglite");
    expect(copyTestDatabaseTemplate(root, dataDir, runSecrets).copied).toBe("seeded");
    expect(copiedFrom(dataDir)).toBe("seeded");
  });

  it("gives an app with secrets of its own (a drill) the migrated one, whose rows it seeds itself", () => {
    makeTemplates();
    for (const secrets of [{ AUTH_SECRET: "b".repeat(40) }, { ...runSecrets, PII_ENCRYPTION_KEY: "k".repeat(44) }]) {
      const dataDir = path.join(work, `app-${Math.random()}`);
      expect(copyTestDatabaseTemplate(root, dataDir, secrets).copied).toBe("migrated");
      expect(copiedFrom(dataDir)).toBe("migrated");
    }
  });

  it("never replaces a database, and copies nothing without a template", () => {
    makeTemplates();
    const dataDir = path.join(work, "existing");
    fs.mkdirSync(dataDir);
    fs.writeFileSync(path.join(dataDir, "PG_VERSION"), "the app's own");
    expect(copyTestDatabaseTemplate(root, dataDir, runSecrets).copied).toBe("none");
    expect(copiedFrom(dataDir)).toBe("the app's own");

    const fresh = path.join(work, "fresh");
    expect(copyTestDatabaseTemplate(path.join(work, "no-template"), fresh, runSecrets).copied).toBe("none");
    expect(fs.existsSync(fresh)).toBe(false);
  });

  it("records a hash of the secrets, never the secrets", () => {
    expect(templateSettingsStamp(runSecrets)).not.toContain(runSecrets.AUTH_SECRET);
    expect(templateSettingsStamp(runSecrets)).toMatch(/^[0-9a-f]{64}$/);
  });
});
