/**
 * Runs once when a server instance boots. Reading the settings here makes a bad or missing
 * variable stop the app at start, with every problem named, instead of on the first request.
 * Then the token watcher starts (lib/watcher, ADR 0007): Node runtime only, never while
 * `next build` loads this file, and in the background so the server answers at once. On the
 * embedded database the app also vacuums it now and then (lib/db/upkeep.ts).
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { env } = await import("./lib/env");
  env();
  if (process.env.NEXT_PHASE === "phase-production-build") return;
  const { startTokenWatcher } = await import("./lib/watcher/boot");
  void startTokenWatcher();
  const { startDatabaseUpkeep } = await import("./lib/db/upkeep");
  void startDatabaseUpkeep();
}
