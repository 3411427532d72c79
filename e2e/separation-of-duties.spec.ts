import { DEMO_PASSWORD } from "@/lib/staff/demo-accounts";
import { approveOnStaffPage, expect, readBranchIds, requestWith, SECOND_ADMIN, signInByApi, test, uniqueSuffix } from "@/e2e/support/auth";
import { callServerAction } from "@/e2e/support/action-calls";

/**
 * Separation of duties (ADR 0020) through the administrators' own pages: one
 * administrator cannot give anyone — least of all themselves — a role that sees customer data; a
 * second administrator must approve. And the audit trail's hash chain (ADR 0019) is
 * verified on the audit page.
 */

const STAFF_ACTIONS = "app/(staff)/admin/staff/actions.ts";

test.describe("granting a role that sees customer data", () => {
  test("one administrator proposes, nothing exists until a second approves; the proposer cannot approve", async ({ browser, apiAs }) => {
    const username = `hos.${uniqueSuffix()}`;
    const adminContext = await browser.newContext({ storageState: await (await apiAs("admin")).storageState() });
    const page = await adminContext.newPage();
    const branchIds = await readBranchIds(page);

    await page.goto("/admin/staff/new");
    await page.getByLabel("Username").fill(username);
    await page.getByLabel("Full name").fill("Abena Headoffice");
    await page.getByLabel("Role").selectOption({ label: "Head-office supervisor" });
    await page.getByLabel("Branch").selectOption({ label: "ACC — Accra – Head Office" });
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByText("Sent for approval")).toBeVisible();
    await expect(page.getByTestId("temporary-password")).toHaveCount(0);
    await page.screenshot({ path: "/tmp/sod-proposed.png" });

    // No such account yet: the proposer has no password to sign in with, and the list lacks it.
    await page.goto("/admin/staff");
    await expect(page.locator(`tr[data-username="${username}"]`)).toHaveCount(0);
    const proposal = page.locator(`li[data-approval-username="${username}"]`);
    await expect(proposal).toContainText("Head-office supervisor at ACC");
    await expect(proposal).toContainText("Proposed by admin");
    await expect(proposal.getByRole("button", { name: "Approve" })).toHaveCount(0);
    await expect(proposal.getByRole("button", { name: "Cancel proposal" })).toBeVisible();
    for (const width of [1280, 768, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: `/tmp/sod-pending-${width}.png`, fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });

    // Calling the approve action directly does not help the proposer either.
    const listed = await callServerAction(await apiAs("admin"), { file: STAFF_ACTIONS, name: "createStaffAction" }, {
      username: `${username}.x`,
      name: "Second Try",
      role: "teller",
      branchId: branchIds.ACC,
    });
    expect(listed.result?.ok).toBe(true);
    const ownApprovalId = (listed.result!.data as { status: string; approvalId: string }).approvalId;
    const ownApproval = await callServerAction(await apiAs("admin"), { file: STAFF_ACTIONS, name: "approveRoleChangeAction" }, { approvalId: ownApprovalId });
    expect(ownApproval.result).toMatchObject({ ok: false, code: "FORBIDDEN" });
    const cancelled = await callServerAction(await apiAs("admin"), { file: STAFF_ACTIONS, name: "cancelRoleChangeAction" }, { approvalId: ownApprovalId });
    expect(cancelled.result?.ok).toBe(true);

    // The second administrator approves on their staff page and hands over the password.
    const secondContext = await browser.newContext({ storageState: await (await apiAs(SECOND_ADMIN)).storageState() });
    const secondPage = await secondContext.newPage();
    await secondPage.goto("/admin/staff");
    await expect(secondPage.locator(`li[data-approval-username="${username}.x"]`)).toHaveCount(0);
    const temporaryPassword = await approveOnStaffPage(secondPage, username);
    expect(temporaryPassword).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
    await secondPage.screenshot({ path: "/tmp/sod-approved.png", fullPage: true });
    await signInByApi(username, temporaryPassword!);

    // All of it in the audit trail, and the trail's chain intact.
    await page.goto("/admin/audit?action=staff.approval_approved");
    await expect(page.locator("tbody tr").filter({ hasText: username }).first()).toContainText(SECOND_ADMIN);
    await page.goto("/admin/audit?action=staff.approval_cancelled");
    await expect(page.locator("tbody tr").filter({ hasText: `${username}.x` })).toHaveCount(1);
    await page.goto("/admin/audit");
    await page.getByRole("button", { name: "Verify the trail" }).click();
    await expect(page.getByText("The audit trail is intact")).toBeVisible();
    await expect(page.getByTestId("audit-head-hash")).toHaveText(/^[0-9a-f]{64}$/);
    for (const width of [1280, 768, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: `/tmp/sod-audit-verified-${width}.png` });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto("/admin/audit?action=audit.chain_verified");
    await expect(page.locator("tbody tr").first()).toContainText("Audit trail verified");

    await secondContext.close();
    await adminContext.close();
  });

  test("raising a teller waits for the second administrator; an admin can neither raise themselves nor make another admin a supervisor", async ({ browser, apiAs }) => {
    const adminContext = await browser.newContext({ storageState: await (await apiAs("admin")).storageState() });
    const page = await adminContext.newPage();

    // A teller made through the two-admin path, then raised to supervisor.
    const username = `raise.${uniqueSuffix()}`;
    await page.goto("/admin/staff/new");
    await page.getByLabel("Username").fill(username);
    await page.getByLabel("Full name").fill("Kojo Raised");
    await page.getByLabel("Role").selectOption({ label: "Teller" });
    await page.getByLabel("Branch").selectOption({ label: "KUM — Kumasi – Adum" });
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByText("Sent for approval")).toBeVisible();
    const secondContext = await browser.newContext({ storageState: await (await apiAs(SECOND_ADMIN)).storageState() });
    const secondPage = await secondContext.newPage();
    await approveOnStaffPage(secondPage, username);

    await page.goto("/admin/staff");
    await page.getByRole("link", { name: "Kojo Raised" }).click();
    await page.getByLabel("Role").selectOption({ label: "Branch supervisor" });
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByText("Sent for approval")).toBeVisible();
    await page.reload();
    await expect(page.getByLabel("Role")).toHaveValue("teller");

    // The second administrator rejects it: still a teller.
    await secondPage.goto("/admin/staff");
    await secondPage.locator(`li[data-approval-username="${username}"]`).getByRole("button", { name: "Reject" }).click();
    await expect(secondPage.getByText(/^Rejected: /)).toBeVisible();
    await page.reload();
    await expect(page.getByLabel("Role")).toHaveValue("teller");

    // The administrator's own account: no customer-data role for it, by anyone's hand.
    await page.goto("/admin/staff");
    await page.getByRole("link", { name: "Akosua Darko" }).click();
    await page.getByLabel("Role").selectOption({ label: "Head-office supervisor" });
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByText("You cannot change your own role")).toBeVisible();

    await secondPage.goto("/admin/staff");
    await secondPage.getByRole("link", { name: "Akosua Darko" }).click();
    await secondPage.getByLabel("Role").selectOption({ label: "Head-office supervisor" });
    await secondPage.getByRole("button", { name: "Save changes" }).click();
    await expect(secondPage.getByText("An administrator's account cannot be given a role that sees customer data")).toBeVisible();

    // And the original attack of the review: sign in as the new supervisor and export full IDs —
    // there is no such supervisor, so the export is refused to everyone the admin can be.
    const admin = await requestWith(await signInByApi("admin", DEMO_PASSWORD));
    const exportFull = await admin.post("/api/review/export-full", { headers: { origin: process.env.APP_URL! }, maxRedirects: 0 });
    expect([303, 307, 403]).toContain(exportFull.status());
    await admin.dispose();

    await secondContext.close();
    await adminContext.close();
  });
});
