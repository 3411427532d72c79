import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The palette in app/globals.css, light and dark: every pair of text and background the screens
 * use is at least 4.5:1 (WCAG AA), and the focus ring stands out 3:1 from the page. Axe checks
 * the pages as drawn (e2e/screens.spec.ts); this names the pair that broke.
 */
const css = readFileSync(path.join(import.meta.dirname, "..", "..", "app", "globals.css"), "utf8");

function variablesIn(block: string): Map<string, string> {
  return new Map([...block.matchAll(/--color-([\w-]+):\s*(#[0-9a-f]{6});/gi)].map((match) => [match[1]!, match[2]!.toLowerCase()]));
}

const lightBlock = css.slice(css.indexOf(":root {"), css.indexOf("}", css.indexOf(":root {")));
const darkStart = css.indexOf("@media screen and (prefers-color-scheme: dark)");
const darkBlock = css.slice(darkStart, css.indexOf("}", darkStart));
const schemes = { light: variablesIn(lightBlock), dark: variablesIn(darkBlock) };

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5]
    .map((start) => Number.parseInt(hex.slice(start, start + 2), 16) / 255)
    .map((channel) => (channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

function contrast(a: string, b: string): number {
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (high! + 0.05) / (low! + 0.05);
}

const surfaces = ["surface", "surface-muted", "surface-sunken"];
const textPairs: Array<[text: string, backgrounds: string[]]> = [
  ["ink", surfaces],
  ["ink-muted", surfaces],
  ["ink-subtle", ["surface", "surface-muted"]],
  ["brand-700", [...surfaces, "brand-50", "brand-100"]],
  ["brand-800", ["surface", "brand-50"]],
  ["brand-900", ["surface", "brand-50"]],
  ...(["success", "danger", "warning", "info"] as const).flatMap((state): Array<[string, string[]]> => [
    [`${state}-700`, ["surface", "surface-muted", `${state}-50`]],
    [`${state}-600`, ["surface"]],
  ]),
  // Words on a solid colour: primary and danger buttons (and their hover), a selected filter.
  ["ink-inverse", ["brand-700", "brand-800", "danger-600", "danger-700"]],
  // The chart's series are drawn on its card, and the legend writes each label in its colour.
  ...["successful", "failed", "expired", "invalid", "outcome-unknown", "open"].map((series): [string, string[]] => [`series-${series}`, ["surface"]]),
];

describe.each(Object.entries(schemes))("the %s palette", (_scheme, colours) => {
  it("defines every colour the other scheme defines", () => {
    expect([...colours.keys()].sort()).toEqual([...schemes.light.keys()].sort());
  });

  it.each(textPairs.flatMap(([text, backgrounds]) => backgrounds.map((background) => [text, background])))(
    "%s on %s is at least 4.5:1",
    (text, background) => {
      expect(contrast(colours.get(text)!, colours.get(background)!)).toBeGreaterThanOrEqual(4.5);
    },
  );

  it("draws the focus ring at least 3:1 against the page and a card", () => {
    for (const background of ["surface", "surface-muted"]) {
      expect(contrast(colours.get("info-600")!, colours.get(background)!)).toBeGreaterThanOrEqual(3);
    }
  });
});
