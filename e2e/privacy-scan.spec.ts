import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import type { Response } from "@playwright/test";
import type { StaffRole } from "@/lib/domain/staff-roles";
import { LOCAL_AUTH_SECRET, SANDBOX_API_KEY } from "@/lib/env-defaults";
import type { DemoUsername } from "@/lib/staff/demo-accounts";
import { pages } from "./access-matrix";
import { newCustomer, secretFormsOf } from "./support/customers";
import { e2eMetricsToken } from "./support/metrics-token";
import { readServerLog } from "./support/privacy";
import { expect, test } from "./support/session";
import { fillContact, openRemoteForm, submitAndOpenToken } from "./support/token-forms";

/**
 * The secrets and personal-data scan: a customer's remote token is issued with their
 * full Ghana Card number, phone number and e-mail; then every page each role may open — its HTML,
 * the RSC payloads its links prefetch and every API answer it polls — the built browser bundle,
 * and the app server's log of the run so far must hold no key, no secret and no full ID or phone
 * number (masked copies only).
 */

test.describe.configure({ mode: "serial" });

const customer = newCustomer();
let tokenPath = "";

const ACCOUNT_OF_ROLE: Record<StaffRole, DemoUsername> = {
  teller: "teller.kumasi",
  supervisor: "supervisor.kumasi",
  head_office_supervisor: "supervisor.hq",
  admin: "admin",
};

/** The keys of this run's customer data, generated next to its embedded database (lib/pii/keys.ts). */
function piiKeysOfThisRun(): string[] {
  const file = path.join(process.env.E2E_DATA_DIR!, "pii-keys.json");
  const keys = JSON.parse(readFileSync(file, "utf8")) as { encryptionKey: string; indexKey: string };
  return [keys.encryptionKey, keys.indexKey];
}

function secrets(): string[] {
  const phone = customer.phoneLocal;
  return [
    ...secretFormsOf(customer),
    phone,
    `233${phone.slice(1)}`,
    `+233${phone.slice(1)}`,
    SANDBOX_API_KEY,
    LOCAL_AUTH_SECRET,
    e2eMetricsToken,
    ...piiKeysOfThisRun(),
  ];
}

function leaksIn(text: string, where: string): string[] {
  return secrets()
    .filter((secret) => text.includes(secret))
    .map((secret) => `${where} contains ${secret}`);
}

test("a teller issues a remote token with the customer's full ID, phone and e-mail", async ({ page }) => {
  await openRemoteForm(page);
  await page.getByLabel("Ghana Card number").fill(customer.ghanaCardNumber);
  await fillContact(page, customer, { email: true });
  const id = await submitAndOpenToken(page, "Issue remote token");
  tokenPath = `/tokens/${id}`;
});

for (const [role, account] of Object.entries(ACCOUNT_OF_ROLE) as [StaffRole, DemoUsername][]) {
  test.describe(`${role}`, () => {
    test.use({ account });

    test("no page, RSC payload or API answer holds a key or a full ID or phone number", async ({ page }) => {
      test.setTimeout(120_000);
      expect(tokenPath, "the token of the first test").not.toBe("");
      const bodies: Promise<{ url: string; text: string }>[] = [];
      const isText = (response: Response) => /text\/html|text\/x-component|application\/json|text\/plain|text\/csv/.test(response.headers()["content-type"] ?? "");
      page.on("response", (response) => {
        if (isText(response)) bodies.push(response.text().then((text) => ({ url: response.url(), text }), () => ({ url: response.url(), text: "" })));
      });
      const screens = pages.filter((entry) => entry.audience.kind === "staff" && entry.audience.roles.includes(role));
      for (const entry of screens) {
        await page.goto(entry.urlOfTokenRequest ? entry.urlOfTokenRequest(tokenPath.split("/").pop()!) : entry.url);
        // Prefetches of the page's links and its first polls.
        await page.waitForLoadState("networkidle").catch(() => undefined);
      }
      const read = await Promise.all(bodies);
      expect(read.length).toBeGreaterThan(screens.length);
      expect(read.flatMap(({ url, text }) => leaksIn(text, url))).toEqual([]);
    });
  });
}

test("the built browser bundle holds no secret and no server-only code", () => {
  const staticDir = path.join(process.cwd(), ".next", "static");
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (/\.(js|css|json|html|txt)$/.test(name)) files.push(full);
    }
  };
  walk(staticDir);
  expect(files.length).toBeGreaterThan(10);
  // The names would appear only if server code (env, the upstream client, the key handling) had
  // been bundled for the browser; the values, if a secret had been inlined.
  const markers = [LOCAL_AUTH_SECRET, SANDBOX_API_KEY, "X-API-AUTH", "UPSTREAM_API_KEY", "PII_ENCRYPTION_KEY", "PII_INDEX_KEY", "DATABASE_URL", "METRICS_TOKEN", "AUTH_SECRET"];
  const found = files.flatMap((file) => {
    const text = readFileSync(file, "utf8");
    return markers.filter((marker) => text.includes(marker)).map((marker) => `${path.relative(staticDir, file)} contains ${marker}`);
  });
  expect(found).toEqual([]);
});

test("the server log of the run so far holds no key, no full Ghana Card number and not this customer's phone", () => {
  const log = readServerLog();
  expect(log.length).toBeGreaterThan(1_000);
  expect(leaksIn(log, "the server log")).toEqual([]);
  // Every spec's customers, not just this one's: a full Ghana Card number has no business in a log line.
  expect(log.match(/GHA-?\d{9}-?\d/g) ?? []).toEqual([]);
});
