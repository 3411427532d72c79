import fs from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

/**
 * First-load JS per page of a `next build` (issue 15, ADR 0027): the chunks Next lists for each
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

export type BudgetVerdict = { isWithin: boolean; over: Array<{ route: string; bytes: number }>; lines: string[] };

/** Every budgeted route at or under `limitBytes`; a budgeted route missing from the build fails too. */
export function checkBudget(sizes: Map<string, number>, budgetedRoutes: readonly string[] | "all", limitBytes: number): BudgetVerdict {
  const routes = budgetedRoutes === "all" ? [...sizes.keys()] : budgetedRoutes;
  const over: BudgetVerdict["over"] = [];
  const lines: string[] = [];
  for (const route of routes) {
    const bytes = sizes.get(route);
    if (bytes === undefined) {
      over.push({ route, bytes: Number.NaN });
      lines.push(`✖ ${route}: not in the build`);
      continue;
    }
    const isOver = bytes > limitBytes;
    if (isOver) over.push({ route, bytes });
    lines.push(`${isOver ? "✖" : "✔"} ${route.padEnd(28)} ${(bytes / 1000).toFixed(1)} kB`);
  }
  return { isWithin: over.length === 0, over, lines };
}
