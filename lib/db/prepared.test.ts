import { describe, expect, it } from "vitest";
import type { Database } from "./types";
import { builtOncePerDatabase } from "./prepared";

/** A stand-in for drizzle's query builder: records each build and the name it is prepared under. */
function recordingBuilder() {
  const builds: string[] = [];
  const build = (db: Database) => ({
    prepare: (name: string) => {
      builds.push(`${(db as unknown as { label: string }).label}:${name}`);
      return { name };
    },
  });
  return { builds, build };
}
const database = (label: string) => ({ label }) as unknown as Database;

describe("a hot-path statement built once per database", () => {
  it("is built and prepared once for each database, under its name", () => {
    const { builds, build } = recordingBuilder();
    const statement = builtOncePerDatabase("poll_statement", build, () => true);
    const [first, second] = [database("a"), database("b")];
    expect(statement(first)).toBe(statement(first));
    statement(second);
    expect(builds).toEqual(["a:poll_statement", "b:poll_statement"]);
  });

  it("goes unnamed when named statements are off (a transaction-pooling proxy in front of PostgreSQL)", () => {
    const { builds, build } = recordingBuilder();
    builtOncePerDatabase("poll_statement", build, () => false)(database("a"));
    expect(builds).toEqual(["a:"]);
  });
});
