/**
 * Runs once when a server instance boots. Reading the settings here makes a bad or missing
 * variable stop the app at start, with every problem named, instead of on the first request.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { env } = await import("./lib/env");
  env();
}
