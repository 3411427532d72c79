import { expect, test } from "@playwright/test";
import { requestWith, signInByApi } from "@/e2e/support/auth";
import { maskedExportHeader } from "@/lib/review/csv-columns";
import { demoFormulaReference, demoKnownCustomer } from "@/scripts/demo-data/plan";
import { parseCsv } from "@/test/kit/csv";
import { demoAccount } from "@/lib/staff/demo-accounts";

/** The CSV export: BOM, the expected header, masked ID numbers, formulas neutralised. */

test("the masked export opens with the expected header, masked IDs and a neutralised formula", async () => {
  const state = await signInByApi("supervisor.hq", demoAccount("supervisor.hq").password);
  const api = await requestWith(state);
  const response = await api.get("/api/review/export");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toBe("text/csv; charset=utf-8");
  expect(response.headers()["content-disposition"]).toMatch(/^attachment; filename="veridesk-tokens-\d{4}-\d{2}-\d{2}\.csv"$/);
  expect(response.headers()["cache-control"]).toBe("no-store");

  const body = await response.body();
  expect([...body.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const text = body.toString("utf8");
  const [header, ...rows] = parseCsv(text);
  expect(header).toEqual(maskedExportHeader);
  expect(rows.length).toBeGreaterThan(1_000);

  const idColumn = header!.indexOf("ID number (masked)");
  const referenceColumn = header!.indexOf("Reference");
  // One expect over all rows: thousands of single expects take minutes.
  // Every ID number is masked, or erased under the retention policy (the live seed's old token).
  const erased = /^erased on \d{1,2} [A-Z][a-z]{2} \d{4} under the retention policy$/;
  expect(rows.filter((row) => !row[idColumn]!.includes("•") && !erased.test(row[idColumn]!))).toEqual([]);
  expect(text).not.toContain(demoKnownCustomer.idNumber);
  expect(text).not.toContain(demoKnownCustomer.idNumber.replace(/-/g, ""));

  const formulaRows = rows.filter((row) => row[referenceColumn]!.includes("HYPERLINK"));
  expect(formulaRows).toHaveLength(1);
  expect(formulaRows[0]![referenceColumn]).toBe(`'${demoFormulaReference}`);
  // No cell anywhere starts with a character a spreadsheet would run.
  expect(rows.flat().filter((cell) => /^[=+@\t\r]/.test(cell))).toEqual([]);
});

test("the export follows the list's filters", async () => {
  const state = await signInByApi("supervisor.hq", demoAccount("supervisor.hq").password);
  const api = await requestWith(state);
  const [header, ...rows] = parseCsv(await (await api.get("/api/review/export?state=failed&kind=remote")).text());
  const stateColumn = header!.indexOf("State");
  const kindColumn = header!.indexOf("Kind");
  expect(rows.length).toBeGreaterThan(0);
  expect(rows.filter((row) => row[stateColumn] !== "Failed" || row[kindColumn] !== "Remote")).toEqual([]);
});

test("only head office may export full ID numbers, with a reason, and the export is audited", async () => {
  const branch = await requestWith(await signInByApi("supervisor.kumasi", demoAccount("supervisor.kumasi").password));
  const refused = await branch.post("/api/review/export-full", { form: { filters: "", reason: "Compliance request 2026/114" } });
  expect(refused.status()).toBe(403);

  const hq = await requestWith(await signInByApi("supervisor.hq", demoAccount("supervisor.hq").password));
  // What the review page's form sends: the browser's own origin.
  const fromOwnPage = { origin: process.env.APP_URL!, "sec-fetch-site": "same-origin" };
  const post = (reason: string, headers: Record<string, string> = fromOwnPage) =>
    hq.post("/api/review/export-full", { form: { filters: "", reason }, headers });
  expect((await post("short")).status()).toBe(422);
  // Another site's form, a cross-site fetch, or no browser origin at all: refused before anything is read.
  expect((await post("Compliance request 2026/114", { origin: "https://evil.example", "sec-fetch-site": "cross-site" })).status()).toBe(403);
  expect((await post("Compliance request 2026/114", { "sec-fetch-site": "same-site" })).status()).toBe(403);
  expect((await post("Compliance request 2026/114", {})).status()).toBe(403);
  // A cross-site link to the masked export is refused too.
  expect((await hq.get("/api/review/export", { headers: { "sec-fetch-site": "cross-site" } })).status()).toBe(403);
  const response = await post("Compliance request 2026/114");
  expect(response.status()).toBe(200);
  const [header, ...rows] = parseCsv(await response.text());
  expect(header).toContain("ID number (full)");
  expect(rows.map((row) => row[header!.indexOf("ID number (full)")])).toContain(demoKnownCustomer.idNumber);
});
