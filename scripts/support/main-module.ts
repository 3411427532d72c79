import { realpathSync } from "node:fs";
import { pathToFileURL } from "node:url";

/**
 * Whether the module at `moduleUrl` is the script this process was started with (`tsx
 * scripts/x.ts`), not a module another script imported: a script that also exports its work runs
 * it on its own only when started.
 */
export function isMainModule(moduleUrl: string): boolean {
  const started = process.argv[1];
  if (!started) return false;
  try {
    return pathToFileURL(realpathSync(started)).href === moduleUrl;
  } catch {
    return false;
  }
}
