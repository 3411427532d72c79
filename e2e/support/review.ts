import { expect, type Page } from "@playwright/test";

/**
 * Helpers of the review specs. They run on the demo seed (`db-seed.ts --demo` before the app
 * starts; E2E_SEED_DEMO=1 in scripts/serve-app.ts) and skip, saying why, on a database without it.
 */

/** The "Tokens 1–50 of N" line: N, and whether it is "more than". */
export async function readListTotal(page: Page): Promise<{ total: number; isCapped: boolean }> {
  const text = (await page.getByTestId("review-count").textContent()) ?? "";
  const match = /of (more than )?([\d,]+)/.exec(text);
  if (!match) return { total: 0, isCapped: false };
  return { total: Number(match[2]!.replace(/,/g, "")), isCapped: Boolean(match[1]) };
}

export async function rowAttributes(page: Page, attribute: string): Promise<string[]> {
  return page.getByTestId("review-row").evaluateAll((rows, name) => rows.map((row) => row.getAttribute(name) ?? ""), attribute);
}

/** Skips the calling test when the demo data is not there. */
export async function requireDemoData(page: Page): Promise<void> {
  await page.goto("/review");
  const rows = await page.getByTestId("review-row").count();
  if (rows === 0) {
    throw new Error("The review specs need the demo seed: start the app with E2E_SEED_DEMO=1 (scripts/serve-app.ts runs db-seed --demo).");
  }
  await expect(page.getByRole("heading", { name: "Token review" })).toBeVisible();
}

/** Option values of a select, by the select's label, as { label: value }. */
export async function optionsOf(page: Page, label: string): Promise<Record<string, string>> {
  return page.getByLabel(label, { exact: true }).evaluate((select) =>
    Object.fromEntries([...(select as HTMLSelectElement).options].filter((option) => option.value).map((option) => [option.textContent ?? "", option.value])),
  );
}
