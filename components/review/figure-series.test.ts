import { describe, expect, it } from "vitest";
import { figureSeries } from "./figure-series";

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((start) => Number.parseInt(hex.slice(start, start + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

const contrast = (a: string, b: string) => {
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (high! + 0.05) / (low! + 0.05);
};

describe("the figures chart's colours", () => {
  it.each(figureSeries.map((item) => [item.label, item.color]))("%s (%s) is at least 4.5:1 on white", (_label, color) => {
    expect(contrast(color, "#ffffff")).toBeGreaterThanOrEqual(4.5);
  });
});
