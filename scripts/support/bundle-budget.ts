import fs from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

/**
 * First-load JS per page of a `next build` (ADR 0027): the chunks Next lists for each
 * route in `.next/diagnostics/route-bundle-stats.json`, each gzipped at level 9, summed (bytes).
 */
export type RouteBundleStats = Array<{ route: string; firstLoadChunkPaths: string[] }>;

export function firstLoadGzipPerRoute(root: string, statsFile = ".next/diagnostics/route-bundle-stats.json"): Map<string, number> {
  const statsPath = path.join(root, statsFile);
  if (!fs.existsSync(statsPath)) throw new Error(`${statsFile} is missing: run \`next build\` first`);
  const stats = JSON.parse(fs.readFileSync(statsPath, "utf8")) as RouteBundleStats;
  const gzipOf = new Map<string, number>();
  const sizes = new Map<string, number>();
  for (const { route, firstLoadChunkPaths } of stats) {
    let total = 0;
    for (const chunk of firstLoadChunkPaths) {
      let size = gzipOf.get(chunk);
      if (size === undefined) {
        size = gzipSync(fs.readFileSync(path.join(root, chunk)), { level: 9 }).length;
        gzipOf.set(chunk, size);
      }
      total += size;
    }
    sizes.set(route, total);
  }
  return sizes;
}

export type BudgetVerdict = { isWithin: boolean; over: Array<{ route: string; bytes: number; limit: number }>; lines: string[] };

/**
 * Every route of the build at or under its limit: `limits` names the routes allowed more than
 * `goalBytes` (each at most its figure); a named route missing from the build fails too, so a
 * renamed page cannot keep an allowance it no longer needs.
 */
export function checkBudget(sizes: Map<string, number>, goalBytes: number, limits: Readonly<Record<string, number>> = {}): BudgetVerdict {
  const over: BudgetVerdict["over"] = [];
  const lines: string[] = [];
  for (const route of Object.keys(limits)) {
    if (!sizes.has(route)) {
      over.push({ route, bytes: Number.NaN, limit: limits[route]! });
      lines.push(`✖ ${route}: has an allowance but is not in the build`);
    }
  }
  for (const [route, bytes] of [...sizes].sort(([a], [b]) => a.localeCompare(b))) {
    const limit = limits[route] ?? goalBytes;
    const isOver = bytes > limit;
    if (isOver) over.push({ route, bytes, limit });
    const allowance = limit === goalBytes ? "" : ` (allowed ${(limit / 1000).toFixed(0)} kB until brought under ${(goalBytes / 1000).toFixed(0)})`;
    lines.push(`${isOver ? "✖" : "✔"} ${route.padEnd(28)} ${(bytes / 1000).toFixed(1)} kB${allowance}`);
  }
  return { isWithin: over.length === 0, over, lines };
}
