import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

/** The WCAG levels the desk is held to (2.1 AA). */
export const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21aa"];

type AxeViolation = Awaited<ReturnType<AxeBuilder["analyze"]>>["violations"][number];

/**
 * What axe finds wrong on the page as it is now: every rule of `tags`, or only `rules`.
 *
 * Legacy mode runs `axe.run` in the page itself. The default way runs each frame's part, then opens
 * a new blank page to put the parts together and injects axe twice more: that blank page cost more
 * CPU than the rules did (about 1 of every 1.3 CPU-seconds of a check of the desk's pages, ADR
 * 0040). It is there for cross-origin frames, and the desk's pages have no frames at all.
 */
export async function axeViolations(page: Page, scope: { tags: string[] } | { rules: string[] } = { tags: WCAG_TAGS }): Promise<AxeViolation[]> {
  const builder = new AxeBuilder({ page }).setLegacyMode();
  const scoped = "rules" in scope ? builder.withRules(scope.rules) : builder.withTags(scope.tags);
  return (await scoped.analyze()).violations;
}

/** A violation in one line: the rule, its impact and where. */
export function describeViolation(violation: AxeViolation): string {
  return `${violation.id} (${violation.impact}) on ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`;
}

/** Only what blocks someone: axe's serious and critical findings. */
export function isSerious(violation: AxeViolation): boolean {
  return violation.impact === "serious" || violation.impact === "critical";
}
