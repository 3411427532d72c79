import type { Page } from "@playwright/test";
import type { DemoUsername } from "@/lib/staff/demo-accounts";
import type { StaffRole } from "@/lib/domain/staff-roles";
import { pages } from "./access-matrix";
import { liveFixtures } from "@/e2e/support/live-fixtures";
import { axeViolations, describeViolation, isSerious } from "./support/axe";
import { findLayoutDefects } from "./support/layout-checks";
import { actOnScanner, issueFingerprintToken, LIVE_TIMEOUT } from "@/e2e/support/live";
import { newCustomer } from "./support/customers";
import { expect, test } from "./support/session";

/**
 * Every screen a role can open, at a desk monitor, a tablet at the counter and a phone
 * (1280, 768, 390 px), and the phone in dark too: nothing is wider than the window (a teller on a
 * tablet never scrolls sideways to find the Issue button or a token's state), the main menu is
 * reachable, and axe finds nothing serious or critical (at the desk and on the phone: the folded
 * menu is another page; on the phone in dark: another palette). A screenshot of each is kept with the run's
 * results, so a reviewer can look without a browser.
 *
 * And what a screenshot shows at once but a width check misses (e2e/support/layout-
 * checks.ts), at each width: no table column cut off without a "scroll sideways" hint, no text
 * written over other text, no token code broken over lines, no date in a second format. The
 * review screens with 30 days of data get the same checks in e2e/review-screens.spec.ts.
 */
type View = { width: number; axe: boolean };
const VIEWS: View[] = [
  { width: 1280, axe: true },
  { width: 768, axe: false },
  { width: 390, axe: true },
];
/**
 * Dark is another palette on the same layout, switched by a CSS media query: on the phone, each
 * page is looked at again in dark without loading it again, and axe reads only what a palette can
 * break (the same DOM's other rules were read in light a moment before). palette.test.ts checks
 * every text pair of both schemes, the desk's menu row included.
 */
const DARK_WIDTH = 390;
const RULES_A_PALETTE_CAN_BREAK = ["color-contrast", "link-in-text-block"];
const ACCOUNT_OF_ROLE: Record<StaffRole, DemoUsername> = {
  teller: "teller.kumasi",
  supervisor: "supervisor.kumasi",
  head_office_supervisor: "supervisor.hq",
  admin: "admin",
};

/** A real token of Kumasi for the token pages, instead of the matrix's id that matches nothing. */
function urlToOpen(entry: (typeof pages)[number]): string {
  return entry.urlOfTokenRequest ? entry.urlOfTokenRequest(liveFixtures.expiredRemote.id) : entry.url;
}

/**
 * The page already loaded, shown at another width: the layout is CSS media queries, and the one
 * script that measures widths (a table frame's scroll hint, the review chart) follows the window
 * with a ResizeObserver, so a resized page lays out as one loaded at that width. Loading each page
 * once instead of once per width saves the browser and the app two loads in three.
 */
async function showAtWidth(page: Page, width: number): Promise<void> {
  await page.setViewportSize({ width, height: 900 });
  await settle(page);
}

/**
 * Two frames, for the observers' re-render after a resize to land, and the end of any colour
 * transition (a card's or a button's `transition-colors`): the checks read the page at rest, not
 * half-way from the light palette to the dark one.
 */
async function settle(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())));
    await Promise.allSettled(document.getAnimations().filter((animation) => animation instanceof CSSTransition).map((animation) => animation.finished));
  });
}

/**
 * How many px the page is wider than the window. A script's re-layout after a resize (a scroll
 * hint appearing) may land a moment late: a page too wide is looked at again before it counts, as
 * findLayoutDefects does.
 */
async function widerThanTheWindowBy(page: Page): Promise<number> {
  const measure = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  if ((await measure()) <= 0) return 0;
  await page.waitForTimeout(1_000);
  return measure();
}

for (const [role, account] of Object.entries(ACCOUNT_OF_ROLE) as [StaffRole, DemoUsername][]) {
  const screens = pages.filter(
    (entry) => entry.audience.kind === "staff" && entry.audience.roles.includes(role) && entry.url !== "/change-password",
  );

  test.describe(`${role}'s screens`, () => {
    test.use({ account });

    test(`fit 1280, 768 and 390 px, and 390 px dark, with the menu in reach (${screens.length} pages)`, async ({ page }, testInfo) => {
      // Each page loaded once and looked at in each view (the phone twice: light, then dark).
      test.setTimeout(30_000 + screens.length * (VIEWS.length + 1) * 5_000);
      const overflowing: string[] = [];
      const inaccessible: string[] = [];
      const misdrawn: string[] = [];
      const readAxe = async (where: string, scope?: { rules: string[] }) => {
        for (const violation of (await axeViolations(page, scope)).filter(isSerious)) inaccessible.push(`${where}: ${describeViolation(violation)}`);
      };
      for (const entry of screens) {
        const url = urlToOpen(entry);
        await page.setViewportSize({ width: VIEWS[0]!.width, height: 900 });
        await page.emulateMedia({ colorScheme: "light" });
        await page.goto(url);
        await expect(page.locator("main")).toBeVisible();
        for (const { width, axe } of VIEWS) {
          const screenshotPath = (colorScheme: string) => testInfo.outputPath(`${colorScheme}-${width}${url.replace(/\//g, "_") || "_home"}.png`);
          await showAtWidth(page, width);
          await expect(page.locator("main")).toBeVisible();
          const tooWideBy = await widerThanTheWindowBy(page);
          if (tooWideBy > 0) overflowing.push(`${url} at ${width} px is ${tooWideBy} px too wide`);
          for (const defect of await findLayoutDefects(page)) misdrawn.push(`${url} at ${width} px: ${defect}`);
          if (axe) await readAxe(`${url} at ${width} px`);
          await page.screenshot({ path: screenshotPath("light") });
          if (width === DARK_WIDTH) {
            await page.emulateMedia({ colorScheme: "dark" });
            await settle(page);
            await readAxe(`${url} at ${width} px, dark`, { rules: RULES_A_PALETTE_CAN_BREAK });
            await page.screenshot({ path: screenshotPath("dark") });
          }
        }
      }
      await page.emulateMedia({ colorScheme: "light" });

      // The menu: a row of links on a desk monitor, one button away below it.
      await page.setViewportSize({ width: VIEWS[0]!.width, height: 900 });
      await page.goto("/");
      const menuButton = page.getByRole("button", { name: "Menu" });
      const nav = page.getByRole("navigation", { name: "Main" });
      for (const { width } of VIEWS) {
        await showAtWidth(page, width);
        if (width < 1024) {
          await expect(menuButton).toHaveAttribute("aria-expanded", "false");
          await menuButton.click();
          await expect(menuButton).toHaveAttribute("aria-expanded", "true");
          await expect(nav.getByRole("link", { name: "Home" })).toBeVisible();
          await page.keyboard.press("Escape");
          await expect(menuButton).toHaveAttribute("aria-expanded", "false");
          await expect(menuButton).toBeFocused();
        } else {
          await expect(menuButton).toBeHidden();
          await expect(nav.getByRole("link", { name: "Home" })).toBeVisible();
        }
      }
      expect(overflowing, "pages wider than the window").toEqual([]);
      expect(inaccessible, "serious or critical axe findings").toEqual([]);
      expect(misdrawn, "clipped columns, text over text, token codes over lines, dates in a second format").toEqual([]);
    });
  });
}

test.describe("the sign-in page, before anyone is signed in", () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test("fits and passes axe at the desk and on a phone, and on a phone in dark", async ({ page }, testInfo) => {
    const findings: string[] = [];
    const views = [...VIEWS.map(({ width }) => ({ width, colorScheme: "light" as const })), { width: DARK_WIDTH, colorScheme: "dark" as const }];
    // One load, looked at in each view (as the staff screens above).
    await page.goto("/sign-in");
    for (const { width, colorScheme } of views) {
      await page.emulateMedia({ colorScheme });
      await showAtWidth(page, width);
      await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
      const tooWideBy = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      if (tooWideBy > 0) findings.push(`${width} px, ${colorScheme}: ${tooWideBy} px too wide`);
      for (const violation of (await axeViolations(page)).filter(isSerious)) findings.push(`${width} px, ${colorScheme}: ${describeViolation(violation)}`);
      await page.screenshot({ path: testInfo.outputPath(`${colorScheme}-${width}_sign-in.png`) });
    }
    expect(findings).toEqual([]);
  });
});

/**
 * What a fingertip must hit on a tablet or phone (pointer: coarse): every control at least 44 × 44
 * px. Not counted: the skip link (off screen until focused), a link inside running text (WCAG's
 * inline exception), and a link in a row that opens its token wherever it is tapped.
 */
function controlsSmallerThanAFingertip(): string[] {
  const small: string[] = [];
  for (const control of document.querySelectorAll<HTMLElement>("a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button]")) {
    const box = control.getBoundingClientRect();
    if (box.width === 0 || box.height === 0 || getComputedStyle(control).visibility === "hidden") continue;
    if (control.closest(".sr-only, [data-opens-on-tap]")) continue;
    const parent = control.parentElement;
    const isInRunningText = control.tagName === "A" && parent !== null && getComputedStyle(control).display === "inline" && (parent.textContent ?? "").trim().length > (control.textContent ?? "").trim().length;
    if (isInRunningText) continue;
    const target = (control.closest("label") ?? control).getBoundingClientRect();
    if (target.width < 44 || target.height < 44) {
      const name = (control.getAttribute("aria-label") ?? control.textContent ?? control.id).trim().slice(0, 40);
      small.push(`${control.tagName.toLowerCase()} "${name}" ${Math.round(target.width)}×${Math.round(target.height)}`);
    }
  }
  return small;
}

for (const [role, account] of Object.entries(ACCOUNT_OF_ROLE) as [StaffRole, DemoUsername][]) {
  const screens = pages.filter((entry) => entry.audience.kind === "staff" && entry.audience.roles.includes(role) && entry.url !== "/change-password");
  test.describe(`${role}'s screens on a touch screen`, () => {
    test.use({ account, hasTouch: true, isMobile: true, viewport: { width: 390, height: 900 } });

    test(`offer 44 px targets to a fingertip (${screens.length} pages)`, async ({ page }) => {
      test.setTimeout(30_000 + screens.length * 3_000);
      const tooSmall: string[] = [];
      for (const entry of screens) {
        const url = urlToOpen(entry);
        await page.goto(url);
        await expect(page.locator("main")).toBeVisible();
        expect(await page.evaluate(() => matchMedia("(pointer: coarse)").matches), "a touch screen").toBe(true);
        for (const control of await page.evaluate(controlsSmallerThanAFingertip)) tooSmall.push(`${url}: ${control}`);
      }
      expect(tooSmall, "controls under 44 × 44 px on a touch screen").toEqual([]);
    });
  });
}

test.describe("printing with the system in dark mode", () => {
  test.use({ account: "teller.kumasi" });

  test("the verification slip prints black on white, as in light mode", async ({ page, browser }) => {
    const { id, token } = await issueFingerprintToken(page, newCustomer());
    await actOnScanner(browser, token, "SUCCESSFUL");
    await expect(page.getByTestId("state-badge")).toHaveText("Successful", { timeout: LIVE_TIMEOUT });
    await page.emulateMedia({ colorScheme: "dark" });
    await page.goto(`/tokens/${id}/slip`);
    const slip = page.getByTestId("verification-slip");
    await expect(slip).toBeVisible();
    const colours = () => slip.evaluate((element) => ({ text: getComputedStyle(element).color, paper: getComputedStyle(element).backgroundColor }));
    // On screen the slip follows the dark setting...
    expect(await colours()).toEqual({ text: "rgb(230, 235, 238)", paper: "rgb(26, 33, 39)" });
    // ...and on paper it is the light palette.
    await page.emulateMedia({ media: "print", colorScheme: "dark" });
    expect(await colours()).toEqual({ text: "rgb(23, 32, 42)", paper: "rgb(255, 255, 255)" });
  });
});
