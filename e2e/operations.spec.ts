import { expect, test } from "@playwright/test";
import { readServerLog } from "./support/privacy";

/** What the running app does for its operators without being asked. */

test("the app vacuums its embedded database soon after start (PGlite has no autovacuum)", async () => {
  await expect
    .poll(() => readServerLog().split("\n").some((line) => line.includes('"msg":"embedded database vacuumed"')), { timeout: 60_000, intervals: [1_000] })
    .toBe(true);
});
