import { spawn } from "node:child_process";
import { expect, test } from "@playwright/test";

/**
 * `next start` run directly (no scripts/serve-app.ts in front) with weak production settings must
 * stop at boot naming them, not stay up answering 500 to every request.
 */
test("next start refuses weak production settings at boot and exits", async () => {
  const child = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", "0", "-H", "127.0.0.1"], {
    env: {
      ...process.env,
      APP_ENV: "production",
      DATABASE_URL: "postgres://veridesk@127.0.0.1:1/none",
      APP_URL: "http://desk.example.bank",
      AUTH_SECRET: "x".repeat(40),
      UPSTREAM_BASE_URL: "http://verify.example.com",
      UPSTREAM_API_KEY: "cHVibGljOnNlY3JldA==",
      PII_ENCRYPTION_KEY: "0".repeat(64),
      PII_INDEX_KEY: "0".repeat(64),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exitCode = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      resolve(null);
    }, 45_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
  expect(exitCode, output).toBe(1);
  for (const named of ["APP_URL", "UPSTREAM_BASE_URL", "AUTH_SECRET", "PII_ENCRYPTION_KEY", "PII_INDEX_KEY"]) {
    expect(output).toContain(`${named}:`);
  }
});
