import fs from "node:fs";
import path from "node:path";
import { scratchDirectory } from "./directories";
import { PGLITE_TEMPLATE_VARIABLE } from "./pglite-template";

/**
 * Vitest's global setup of the integration project: migrates one empty PGlite directory, the
 * template every scratch PGlite database of the run is copied from (see pglite-template.ts), and
 * removes it when the run ends. The test processes start after this and inherit the variable.
 */
export default async function setup(): Promise<() => void> {
  const directory = scratchDirectory("pglite-template");
  const dataDir = path.join(directory, "pglite");
  const { openDatabase } = await import("@/lib/db/client");
  const opened = await openDatabase({ pgliteDataDir: dataDir, label: "integration tests' PGlite template" });
  await opened.close();
  process.env[PGLITE_TEMPLATE_VARIABLE] = dataDir;
  return () => fs.rmSync(directory, { recursive: true, force: true });
}
