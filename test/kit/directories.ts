import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach } from "vitest";

/**
 * Throw-away directories under the OS temp dir, for tests that need a directory of their own (a
 * key file, a PGlite directory opened by two processes, a cut-down migrations folder). This module
 * imports no app code, so unit tests and tests that set the environment first can use it.
 */

/** A fresh directory under the OS temp dir; the caller removes it (or use `withScratchDirectory`). */
export function scratchDirectory(name: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `veridesk-${name}-`));
}

/** Runs `run` with a fresh directory under the OS temp dir, and removes the directory after, pass or fail. */
export async function withScratchDirectory<T>(name: string, run: (directory: string) => Promise<T>): Promise<T> {
  const directory = scratchDirectory(name);
  try {
    return await run(directory);
  } finally {
    fs.rmSync(directory, { recursive: true, force: true });
  }
}

/**
 * For a test file whose tests each want fresh directories: call once at the top level; it returns
 * a maker, and every directory made during a test is removed after that test.
 */
export function scratchDirectoriesPerTest(name: string): () => string {
  const made: string[] = [];
  afterEach(() => {
    for (const directory of made.splice(0)) fs.rmSync(directory, { recursive: true, force: true });
  });
  return () => {
    const directory = scratchDirectory(name);
    made.push(directory);
    return directory;
  };
}
