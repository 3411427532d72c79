"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { FigureGroup } from "@/lib/review/dto";
import { formatDay } from "@/lib/bank-time";
import { figureSeries } from "./figure-series";

/**
 * Outcomes per branch, teller or day as stacked bars. The colours are the state colours of the
 * badges, always with the word beside them in the legend; the same numbers are in the table that
 * follows (`describedBy`), which is what screen readers read — the chart itself is one image,
 * out of the tab order (`inert`, no recharts accessibility layer): focus never lands on bars
 * hidden from assistive technology. Its colours are the palette's CSS variables, so it follows
 * the dark setting with the rest of the page.
 */

export function FiguresChart({ groups, grouping, describedBy, summary }: { groups: FigureGroup[]; grouping: "branch" | "teller" | "day"; describedBy: string; summary: string }) {
  const data = groups.map((group) => ({
    ...group,
    name: grouping === "day" ? formatDay(group.key) : grouping === "teller" ? `${group.label}${group.sublabel ? ` · ${group.sublabel.split(" – ")[0]}` : ""}` : group.label.split(" – ")[0],
  }));
  const isHorizontal = grouping !== "day";
  const height = isHorizontal ? Math.max(220, 44 + data.length * 30) : 300;
  return (
    <figure role="img" aria-label={summary} aria-describedby={describedBy} className="rounded-card border border-line bg-surface p-4">
      <div style={{ height }} aria-hidden inert>
        <ResponsiveContainer width="100%" height="100%">
          <BarChart accessibilityLayer={false} data={data} layout={isHorizontal ? "vertical" : "horizontal"} margin={{ top: 8, right: 16, bottom: 8, left: 8 }} barCategoryGap="20%">
            <CartesianGrid strokeDasharray="3 3" stroke="var(--color-line)" horizontal={!isHorizontal} vertical={isHorizontal} />
            {isHorizontal ? (
              <>
                <XAxis type="number" allowDecimals={false} tick={{ fill: "var(--color-ink-muted)", fontSize: 13 }} />
                <YAxis type="category" dataKey="name" width={grouping === "teller" ? 190 : 120} tick={{ fill: "var(--color-ink)", fontSize: 13 }} />
              </>
            ) : (
              <>
                <XAxis dataKey="name" tick={{ fill: "var(--color-ink-muted)", fontSize: 12 }} interval="preserveStartEnd" minTickGap={12} />
                <YAxis allowDecimals={false} tick={{ fill: "var(--color-ink-muted)", fontSize: 13 }} width={44} />
              </>
            )}
            <Tooltip cursor={{ fill: "var(--color-surface-sunken)" }} contentStyle={{ background: "var(--color-surface)", borderColor: "var(--color-line)", color: "var(--color-ink)" }} />
            <Legend wrapperStyle={{ fontSize: 14 }} itemSorter={(item) => figureSeries.findIndex((entry) => entry.label === item.value)} />
            {figureSeries.map((item) => (
              <Bar key={item.key} dataKey={item.key} name={item.label} stackId="outcomes" fill={item.color} stroke="var(--color-surface)" strokeWidth={1} isAnimationActive={false} />
            ))}
          </BarChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}
