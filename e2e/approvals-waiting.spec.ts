import type { Page } from "@playwright/test";
import { expect, SECOND_ADMIN, test, uniqueSuffix } from "@/e2e/support/auth";
import { findLayoutDefects } from "./support/layout-checks";

/**
 * A grant of customer data waits for a second administrator
 * (ADR 0020), and that administrator used to learn it only by opening the staff page. Now their
 * home says how many wait for *them* and links to the list, the menu's Staff entry carries the
 * count (and the folded Menu button too, on a tablet or phone), and the Add staff page tells the
 * truth about which roles wait. At 1280, 768 and 390 px, with a screenshot of each kept.
 */

const WIDTHS = [1280, 768, 390] as const;

/** The count of approvals waiting for the signed-in administrator, as their home page states it. */
async function waitingOnHome(page: Page): Promise<number> {
  await page.goto("/");
  return Number(await page.getByTestId("waiting-approvals").getAttribute("data-count"));
}

/** The Staff entry of the main menu, opened first when the menu is folded (below 1024 px). */
async function staffMenuEntry(page: Page, width: number) {
  const nav = page.getByRole("navigation", { name: "Main" });
  if (width < 1024) await page.getByRole("button", { name: /Menu/ }).click();
  return nav.getByRole("link", { name: /^Staff/ });
}

test("the second administrator is told an approval waits, on their home and in the menu, and is taken to it", async ({ browser, apiAs }, testInfo) => {
  const proposer = await (await browser.newContext({ storageState: await (await apiAs("admin")).storageState() })).newPage();
  const approver = await (await browser.newContext({ storageState: await (await apiAs(SECOND_ADMIN)).storageState() })).newPage();
  const before = { proposer: await waitingOnHome(proposer), approver: await waitingOnHome(approver) };

  // The Add staff page says before anything is sent that every role of its form waits.
  for (const width of WIDTHS) {
    await proposer.setViewportSize({ width, height: 900 });
    await proposer.goto("/admin/staff/new");
    const header = proposer.locator("main");
    await expect(header).toContainText("Every role waits for a second administrator's approval");
    await expect(header).toContainText("Teller, Branch supervisor and Head-office supervisor (see customer data) and Administrator (manages staff)");
    await expect(proposer.getByText("can sign in as soon as it is created")).toHaveCount(0);
    await proposer.getByLabel("Role").selectOption({ label: "Teller" });
    await expect(proposer.getByTestId("role-approval-hint")).toHaveText("Teller sees customer data: the account is created only when a second administrator approves it.");
    expect(await findLayoutDefects(proposer)).toEqual([]);
    await proposer.screenshot({ path: testInfo.outputPath(`add-staff-${width}.png`), fullPage: true });
  }
  const username = `wait.${uniqueSuffix()}`;
  await proposer.setViewportSize({ width: 1280, height: 900 });
  await proposer.getByLabel("Username").fill(username);
  await proposer.getByLabel("Full name").fill("Adwoa Waiting");
  await proposer.getByLabel("Role").selectOption({ label: "Teller" });
  await proposer.getByLabel("Branch").selectOption({ label: "KUM — Kumasi – Adum" });
  await proposer.getByRole("button", { name: "Create account" }).click();
  await expect(proposer.getByText("Sent for approval")).toBeVisible();

  // The proposer is not asked to decide their own proposal; they are told it waits for someone else.
  expect(await waitingOnHome(proposer)).toBe(before.proposer);
  await expect(proposer.getByTestId("waiting-approvals")).toContainText(/proposals? of yours waits? for another administrator/);

  const expected = before.approver + 1;
  for (const width of WIDTHS) {
    await approver.setViewportSize({ width, height: 900 });
    expect(await waitingOnHome(approver), `the approver's home at ${width} px`).toBe(expected);
    const notice = approver.getByTestId("waiting-approvals");
    await expect(notice.getByRole("heading")).toHaveText(expected === 1 ? "1 role approval waits for you" : `${expected} role approvals wait for you`);
    if (width < 1024) await expect(approver.getByRole("button", { name: /Menu/ })).toHaveAccessibleName(`Menu ${expected} waiting`);
    const entry = await staffMenuEntry(approver, width);
    await expect(entry.getByTestId("nav-badge")).toContainText(String(expected));
    await expect(entry).toHaveAccessibleName(`Staff ${expected} ${expected === 1 ? "approval waits" : "approvals wait"} for you`);
    expect(await findLayoutDefects(approver)).toEqual([]);
    await approver.screenshot({ path: testInfo.outputPath(`approver-home-${width}.png`), fullPage: true });
    if (width < 1024) await approver.keyboard.press("Escape");
  }

  // The notice leads to the list, where this administrator may decide.
  await approver.getByTestId("waiting-approvals").getByRole("link", { name: /Review/ }).click();
  await expect(approver).toHaveURL(/\/admin\/staff#waiting-approvals$/);
  const proposal = approver.locator(`li[data-approval-username="${username}"]`);
  await expect(proposal).toBeInViewport();
  await approver.screenshot({ path: testInfo.outputPath("approver-waiting-list-390.png") });
  await proposal.getByRole("button", { name: "Reject" }).click();
  await expect(approver.getByText(`Rejected: New account ${username}`)).toBeVisible();

  // Decided: the count and the badge go back to what they were.
  await approver.setViewportSize({ width: 1280, height: 900 });
  expect(await waitingOnHome(approver)).toBe(before.approver);
  const entry = await staffMenuEntry(approver, 1280);
  await expect(entry.getByTestId("nav-badge")).toHaveCount(before.approver > 0 ? 1 : 0);
});
