import fs from "node:fs";
import { expect, type Page } from "@playwright/test";

/**
 * Where a full ID number must never appear: the app server's log (E2E_SERVER_LOG, written by
 * scripts/serve-app.ts) and any URL the browser requested.
 */

export function watchUrls(page: Page): string[] {
  const urls: string[] = [];
  page.on("request", (request) => urls.push(request.url()));
  page.on("framenavigated", (frame) => urls.push(frame.url()));
  return urls;
}

export function readServerLog(): string {
  const logPath = process.env.E2E_SERVER_LOG;
  if (!logPath || !fs.existsSync(logPath)) return "";
  return fs.readFileSync(logPath, "utf8");
}

export function expectNowhere(secrets: readonly string[], places: { urls: readonly string[] }): void {
  const log = readServerLog();
  expect(log.length, "the server log is being written").toBeGreaterThan(0);
  for (const secret of secrets) {
    expect(log.includes(secret), `server log contains ${secret}`).toBe(false);
    const leakingUrl = places.urls.find((url) => decodeURIComponent(url).includes(secret));
    expect(leakingUrl, `a URL contains ${secret}`).toBeUndefined();
  }
}
