import fs from "node:fs";
import path from "node:path";
import { scratchDirectory } from "./directories";
import { PGLITE_TEMPLATE_VARIABLE } from "./pglite-template";

/** Where the run's template is, once made: every project's global setup runs in Vitest's own process. */
const madeTemplate = Symbol.for("veridesk.integration-setup.pglite-template");
type WithTemplate = typeof globalThis & { [madeTemplate]?: string };

/**
 * Vitest's global setup of the integration projects (and the drills): migrates one empty PGlite
 * directory, the template every scratch PGlite database of the run is copied from (see
 * pglite-template.ts), and removes it when the run ends. The test processes start after this and
 * inherit the variable. Each project that lists this file runs it; the first makes the template,
 * the others (the shared and the isolated integration projects in one run) use the same one.
 */
export default async function setup(): Promise<() => void> {
  const host = globalThis as WithTemplate;
  const made = host[madeTemplate];
  if (made && fs.existsSync(made)) {
    process.env[PGLITE_TEMPLATE_VARIABLE] = made;
    return () => undefined;
  }
  const directory = scratchDirectory("pglite-template");
  const dataDir = path.join(directory, "pglite");
  const { openDatabase } = await import("@/lib/db/client");
  const opened = await openDatabase({ pgliteDataDir: dataDir, label: "integration tests' PGlite template" });
  await opened.close();
  process.env[PGLITE_TEMPLATE_VARIABLE] = dataDir;
  host[madeTemplate] = dataDir;
  return () => {
    delete host[madeTemplate];
    fs.rmSync(directory, { recursive: true, force: true });
  };
}
