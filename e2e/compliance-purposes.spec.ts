import { newCustomer } from "./support/customers";
import { callsSince, markCalls, upstreamPaths } from "./support/sandbox";
import { callAction, captureNextAction, readActionResult } from "./support/server-actions";
import { expect, test } from "./support/session";
import { attestAndSubmit, chooseIdType, choosePurpose, fillContact, openRemoteForm } from "./support/token-forms";

/** The bank's purpose policy (ADR 0016): offered in the forms, enforced on the server. */

test.describe("a teller", () => {
  test("is offered only the ID types the purpose allows, and a forged call is refused before the service", async ({ page }) => {
    const customer = newCustomer();
    await openRemoteForm(page);
    const radios = page.getByRole("radio");

    // Before a purpose is picked every type is offered; picking one that allows all keeps them.
    await choosePurpose(page, "Loan disbursement");
    await expect(radios).toHaveCount(4);
    await chooseIdType(page, "Passport");
    await expect(page.getByLabel("Passport number")).toBeVisible();

    // Account opening allows the Ghana Card only: the passport is switched away, not kept hidden.
    await choosePurpose(page, "Account opening");
    await expect(radios).toHaveCount(1);
    await expect(page.getByRole("radio", { name: "Ghana Card" })).toBeChecked();
    await expect(page.getByLabel("Passport number")).toHaveCount(0);
    await expect(page.getByText("Allowed for Account opening: Fingerprint (Ghana Card) · Remote (Ghana Card).")).toBeVisible();
    // Cash withdrawal is fingerprint-only, so the remote form never offers it.
    await expect(page.getByRole("combobox", { name: "Purpose" }).locator("option", { hasText: "Cash withdrawal" })).toHaveCount(0);
    await page.screenshot({ path: "/tmp/compliance-remote-account-opening.png", fullPage: true });

    // The form's own request, stopped before the server, then sent again with a passport.
    await page.getByLabel("Ghana Card number").fill(customer.ghanaCardNumber);
    await fillContact(page, customer);
    const captured = await captureNextAction(page, () => attestAndSubmit(page, "Issue remote token"), { block: true });
    const [validBody] = captured.args as [Record<string, unknown>];
    const forged = { ...validBody, idType: "PASSPORT", passportNumber: customer.passportNumber, ghanaCardNumber: undefined };
    const mark = await markCalls();
    const result = readActionResult((await callAction(page.request, captured, [forged])).text);
    expect(result).toMatchObject({ ok: false, code: "VALIDATION" });
    expect(result.fieldErrors).toEqual({ idType: ['The bank\'s policy for "Account opening" allows only Ghana Card.'] });
    // A kind the purpose does not allow, and a purpose the bank does not have, the same way.
    const withdrawal = readActionResult((await callAction(page.request, captured, [{ ...validBody, purpose: "Cash withdrawal" }])).text);
    expect(withdrawal.fieldErrors).toEqual({ purpose: ['The bank\'s policy for "Cash withdrawal" does not allow remote tokens.'] });
    const invented = readActionResult((await callAction(page.request, captured, [{ ...validBody, purpose: "Because I say so" }])).text);
    expect(Object.keys(invented.fieldErrors ?? {})).toEqual(["purpose"]);
    // Not one issuing call reached the service (the sandbox's own call log; the watcher's status
    // calls about other specs' open tokens go on meanwhile).
    expect([...(await callsSince(mark, upstreamPaths.fingerprint)), ...(await callsSince(mark, upstreamPaths.remote))]).toEqual([]);
  });
});

test.describe("an administrator", () => {
  test.use({ account: "admin" });

  test("manages the purposes; each change is audited", async ({ page }) => {
    await page.goto("/admin/purposes");
    await expect(page.getByRole("heading", { name: "Verification purposes" })).toBeVisible();
    const accountOpening = page.locator('tr[data-purpose="Account opening"]');
    await expect(accountOpening).toContainText("Fingerprint (Ghana Card) · Remote (Ghana Card)");
    await page.screenshot({ path: "/tmp/compliance-purposes.png", fullPage: true });

    const name = `Pension payment ${Date.now() % 100_000}`;
    await page.getByRole("button", { name: "Add purpose" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Name").fill(name);
    await dialog.getByLabel("Remote tokens").uncheck();
    await dialog.getByRole("button", { name: "Add purpose" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.locator(`tr[data-purpose="${name}"]`)).toContainText("Fingerprint (Ghana Card)");

    // A policy that allows nothing is refused with the field named.
    await page.getByRole("button", { name: `Edit ${name}` }).click();
    await page.getByRole("dialog").getByLabel("Fingerprint tokens").uncheck();
    await page.getByRole("dialog").getByRole("button", { name: "Save policy" }).click();
    await expect(page.getByRole("dialog")).toContainText("Allow fingerprint tokens, remote tokens, or both.");
    await page.getByRole("dialog").getByLabel("Remote tokens").check();
    await page.getByRole("dialog").getByLabel("Voter ID").check();
    await page.getByRole("dialog").getByRole("button", { name: "Save policy" }).click();
    await expect(page.getByRole("dialog")).toBeHidden();
    await expect(page.locator(`tr[data-purpose="${name}"]`)).toContainText("Remote (Voter ID)");

    await page.goto("/admin/audit");
    await expect(page.getByRole("table").getByText("Purpose added").first()).toBeVisible();
    await expect(page.getByRole("table").getByText("Purpose policy changed").first()).toBeVisible();
  });
});
