import { demoKnownCustomer } from "@/scripts/demo-data/plan";
import { optionsOf, readListTotal, requireDemoData, rowAttributes } from "@/e2e/support/review";
import { expect, test } from "./support/session";

/**
 * The supervisor's token list on the demo seed: every filter narrows the list to rows that match
 * it, and the exact ID-number search finds the customer without the number ever reaching a URL.
 */
test.use({ account: "supervisor.hq" });

test.beforeEach(async ({ page }) => {
  await requireDemoData(page);
});

test("each filter narrows the list to rows that match it", async ({ page }) => {
  const { total: everything } = await readListTotal(page);
  expect(everything).toBeGreaterThan(1_000);
  const branches = await optionsOf(page, "Branch");
  const tellers = await optionsOf(page, "Teller");
  const kumasi = branches["Kumasi – Adum"]!;
  const someTeller = Object.values(tellers)[0]!;
  const someToken = (await rowAttributes(page, "data-token")).find(Boolean);

  const cases: { name: string; query: string; attribute?: string; expected?: (value: string) => boolean }[] = [
    { name: "state", query: "state=failed", attribute: "data-state", expected: (value) => value === "failed" },
    { name: "two states", query: "state=expired&state=invalid", attribute: "data-state", expected: (value) => ["expired", "invalid"].includes(value) },
    { name: "kind", query: "kind=remote", attribute: "data-kind", expected: (value) => value === "remote" },
    { name: "ID type", query: "idType=PASSPORT", attribute: "data-id-type", expected: (value) => value === "PASSPORT" },
    { name: "branch", query: `branch=${kumasi}`, attribute: "data-branch-id", expected: (value) => value === kumasi },
    { name: "teller", query: `teller=${encodeURIComponent(someTeller)}`, attribute: "data-teller-id", expected: (value) => value === someTeller },
    {
      name: "date range",
      query: "from=2000-01-01&to=2000-01-31",
    },
    // Exact, through the blind index (the reference is stored encrypted): the demo's known customer's phone.
    { name: "reference", query: "reference=024+400+0123" },
    { name: "token", query: `token=${someToken}` },
  ];

  for (const filter of cases) {
    await test.step(filter.name, async () => {
      await page.goto(`/review?${filter.query}`);
      const rows = page.getByTestId("review-row");
      if (filter.name === "date range") {
        await expect(page.getByText("No token matches these filters")).toBeVisible();
        return;
      }
      const { total } = await readListTotal(page);
      expect(total, filter.name).toBeGreaterThan(0);
      expect(total, filter.name).toBeLessThan(everything);
      if (filter.attribute && filter.expected) {
        for (const value of await rowAttributes(page, filter.attribute)) expect(filter.expected(value), `${filter.name}: ${value}`).toBe(true);
      }
      if (filter.name === "reference") {
        for (const reference of await rows.locator("td:nth-child(4)").allTextContents()) expect(reference).toBe("024 ••• 0123");
      }
      if (filter.name === "token") {
        expect(total).toBe(1);
        await expect(rows.first()).toContainText(someToken!);
      }
    });
  }
});

test("the filter form puts the filters in the URL, and a date range narrows by creation day", async ({ page }) => {
  await page.locator("summary", { hasText: "Filters" }).click();
  await page.getByLabel("Failed").check();
  await page.getByLabel("Kind").selectOption("fingerprint");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/state=failed/);
  await expect(page).toHaveURL(/kind=fingerprint/);
  for (const value of await rowAttributes(page, "data-state")) expect(value).toBe("failed");
  for (const value of await rowAttributes(page, "data-kind")) expect(value).toBe("fingerprint");

  const days = (await rowAttributes(page, "data-created-at")).map((iso) => iso.slice(0, 10));
  const day = days[0]!;
  await page.goto(`/review?from=${day}&to=${day}`);
  const created = await rowAttributes(page, "data-created-at");
  expect(created.length).toBeGreaterThan(0);
  for (const iso of created) expect(iso.slice(0, 10)).toBe(day);
});

test("exact ID search finds the customer's tokens, and the number never reaches a URL", async ({ page }) => {
  const urls: string[] = [];
  page.on("request", (request) => urls.push(request.url()));
  const digits = demoKnownCustomer.idNumber.replace(/\D/g, "");

  const search = page.getByRole("region", { name: "Find a customer by ID number" });
  await search.getByLabel("ID type").selectOption("GHANA_CARD");
  // Typed as a teller would: lower case, spaces, no dashes.
  await search.getByLabel("ID number", { exact: true }).fill(`gha ${digits.slice(0, 9)} ${digits.slice(9)}`);
  await search.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page.getByTestId("id-search-row")).toHaveCount(demoKnownCustomer.tokenCount);
  await expect(page.getByTestId("id-search-summary")).toContainText(`${demoKnownCustomer.tokenCount} tokens`);
  // Masked in the answer, absent from every URL the browser asked for, and from the address bar.
  await expect(page.getByTestId("id-search-row").first()).toContainText("•");
  expect(page.url()).not.toContain(digits.slice(0, 9));
  for (const url of urls) expect(url).not.toContain(digits.slice(0, 9));
  expect(await page.content()).not.toContain(demoKnownCustomer.idNumber);

  await search.getByLabel("ID number", { exact: true }).fill("GHA-999999999-9");
  await search.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page.getByTestId("id-search-empty")).toBeVisible();
});

test("sorting by a column header keeps the filters and orders the rows", async ({ page }) => {
  await page.goto("/review?state=successful&state=failed");
  await page.getByRole("button", { name: /Time to result/ }).click();
  await expect(page).toHaveURL(/sort=duration/);
  await expect(page).toHaveURL(/state=successful/);
  await expect(page.getByRole("columnheader", { name: /Time to result/ })).toHaveAttribute("aria-sort", "ascending");
});
