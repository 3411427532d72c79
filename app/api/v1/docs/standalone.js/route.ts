import fs from "node:fs/promises";
import path from "node:path";

/**
 * Scalar's API reference script, served by Veridesk itself: the docs page loads nothing from a CDN,
 * so the CSP ('self' + nonce) holds and the page works on a bank network without internet.
 */
const SCRIPT = path.join(process.cwd(), "node_modules", "@scalar", "api-reference", "dist", "browser", "standalone.js");

export async function GET(): Promise<Response> {
  const script = await fs.readFile(SCRIPT);
  return new Response(new Uint8Array(script), {
    headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "private, max-age=3600", "x-content-type-options": "nosniff" },
  });
}
