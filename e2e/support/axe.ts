import axe, { type AxeResults, type ContextObject, type RunOptions } from "axe-core";
import type { Frame, Page } from "@playwright/test";

/** The WCAG levels the desk is held to (2.1 AA). */
export const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21aa"];

type AxeViolation = AxeResults["violations"][number];

/**
 * What axe finds wrong on the page as it is now: every rule of `tags`, or only `rules`.
 *
 * This is what @axe-core/playwright's legacy mode does (`axe.run` in the page itself, same-origin
 * frames only, the same configuration), with less around it. Its default way runs each frame's
 * part, then opens a new blank page to put the parts together: that page cost more CPU than the
 * rules did (ADR 0040), and it is there for cross-origin frames, which the desk's pages do not
 * have. Legacy mode itself sends axe's 640 kB source into the page twice on every check and brings
 * back every passing node's HTML too; here the source goes in once per document (a page looked at
 * in three views is checked three times on one load), and only the violations come back.
 */
export async function axeViolations(page: Page, scope: { tags: string[] } | { rules: string[] } = { tags: WCAG_TAGS }): Promise<AxeViolation[]> {
  for (const frame of page.frames()) await injectAxe(frame);
  const options: RunOptions = { runOnly: "rules" in scope ? { type: "rule", values: scope.rules } : { type: "tag", values: scope.tags } };
  // The context @axe-core/playwright passes when nothing is included or excluded: the whole document.
  const context: ContextObject = { include: [], exclude: [] } as unknown as ContextObject;
  // As a JSON string: the violations cross to the test as one string, not as a tree of objects.
  const answer = await page.evaluate(
    (input: string) => {
      const { context, options } = JSON.parse(input) as { context: ContextObject; options: RunOptions };
      return (window as unknown as { axe: typeof axe }).axe.run(context, options).then(
        (results) => JSON.stringify({ error: null, violations: results.violations }),
        (error: Error) => JSON.stringify({ error: error.message, violations: [] }),
      );
    },
    JSON.stringify({ context, options }),
  );
  const { error, violations } = JSON.parse(answer) as { error: string | null; violations: AxeViolation[] };
  if (error !== null) throw new Error(error);
  return violations;
}

/** axe into a frame's current document, unless it is there already; configured as @axe-core/playwright's legacy mode does. */
async function injectAxe(frame: Frame): Promise<void> {
  try {
    if (await frame.evaluate(() => typeof (window as unknown as { axe?: { run?: unknown } }).axe?.run === "function")) return;
    await frame.evaluate(axe.source);
    await frame.evaluate(`;axe.configure({ allowedOrigins: ["<same_origin>"], branding: { application: "playwright" } })`);
  } catch {
    // As @axe-core/playwright: a frame that cannot take the script (detached, or another origin's) is left out.
  }
}

/** A violation in one line: the rule, its impact and where. */
export function describeViolation(violation: AxeViolation): string {
  return `${violation.id} (${violation.impact}) on ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`;
}

/** Only what blocks someone: axe's serious and critical findings. */
export function isSerious(violation: AxeViolation): boolean {
  return violation.impact === "serious" || violation.impact === "critical";
}
