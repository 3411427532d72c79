/**
 * Runs once when a server instance boots: everything it does is in lib/server/start.ts. Next
 * compiles this file for the Edge runtime too; the condition below is the one Next replaces at
 * compile time, so the Edge build drops the import and never bundles the Node-only modules.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { startServer } = await import("./lib/server/start");
    await startServer();
  }
}
