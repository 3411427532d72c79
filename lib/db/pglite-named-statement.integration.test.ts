import { PGlite, types } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pgliteNamedStatementClient } from "./pglite-named-statement";

/**
 * The named client must answer exactly what PGlite's own query() answers (drizzle maps its rows
 * the same either way), take the same locks, and survive a failed run (ADR 0036).
 */
let pg: PGlite;

const text = `select id, shown_version, is_final, note, facts, amount, created_at, tags
  from rows where branch = $1 and created_at >= $2 order by id`;

// What drizzle's PGlite driver asks for: arrays, and timestamps left as text (it parses them).
const drizzleOptions = {
  rowMode: "array" as const,
  parsers: { [types.TIMESTAMPTZ]: (value: string) => value, [types.TIMESTAMP]: (value: string) => value, [types.DATE]: (value: string) => value },
};

beforeAll(async () => {
  pg = new PGlite();
  await pg.exec(`
    create table rows (id int primary key, branch uuid not null, shown_version bigint not null, is_final boolean, note text,
      facts jsonb, amount numeric, created_at timestamptz not null, tags text[]);
    insert into rows values
      (1, '00000000-0000-4000-8000-000000000001', 9007199254740993, true, 'it''s', '{"a": [1, 2]}', 12.50, '2026-11-26T08:00:00Z', '{x,y}'),
      (2, '00000000-0000-4000-8000-000000000001', 2, null, null, null, null, '2026-11-26T09:30:00.123456Z', null),
      (3, '00000000-0000-4000-8000-000000000002', 3, false, 'other branch', '[]', 0, '2026-11-26T10:00:00Z', '{}');
  `);
});

afterAll(async () => {
  await pg.close();
});

describe("a read run as a named prepared statement on PGlite", () => {
  it("answers exactly what query() answers, in drizzle's array mode and in object mode", async () => {
    const named = pgliteNamedStatementClient(pg, "rows_of_branch");
    const params = ["00000000-0000-4000-8000-000000000001", new Date("2026-11-26T00:00:00Z")];
    for (const options of [drizzleOptions, undefined]) {
      const expected = await pg.query(text, params, options);
      for (let run = 0; run < 3; run += 1) {
        const answer = await named.query(text, params, options);
        expect(answer.rows).toEqual(expected.rows);
        expect(answer.fields).toEqual(expected.fields);
      }
    }
    expect((await named.query(text, ["00000000-0000-4000-8000-000000000002", "2026-11-26T00:00:00Z"], drizzleOptions)).rows).toEqual([
      [3, 3, false, "other branch", [], "0", "2026-11-26 10:00:00+00", []],
    ]);
  });

  it("is parsed once: the database keeps it under its name", async () => {
    const named = pgliteNamedStatementClient(pg, "rows_counted");
    await named.query("select count(*)::int as count from rows where branch = $1", ["00000000-0000-4000-8000-000000000001"]);
    await named.query("select count(*)::int as count from rows where branch = $1", ["00000000-0000-4000-8000-000000000002"]);
    const kept = await pg.query<{ name: string }>("select name from pg_prepared_statements where name = 'rows_counted'");
    expect(kept.rows).toEqual([{ name: "rows_counted" }]);
    await expect(named.query("select 1", [])).rejects.toThrow(/another text/);
  });

  it("waits for a transaction in progress, as query() does, and then sees what it wrote", async () => {
    const named = pgliteNamedStatementClient(pg, "rows_total");
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let wrote!: () => void;
    const written = new Promise<void>((resolve) => (wrote = resolve));
    const transaction = pg.transaction(async (tx) => {
      await tx.query("insert into rows values (4, '00000000-0000-4000-8000-000000000001', 4, true, 'late', null, 1, now(), null)");
      wrote();
      await held;
    });
    await written;
    let isAnswered = false;
    const read = named.query<{ count: number }>("select count(*)::int as count from rows").then((answer) => {
      isAnswered = true;
      return answer;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(isAnswered).toBe(false);
    release();
    await transaction;
    expect((await read).rows).toEqual([{ count: 4 }]);
  });

  it("reports a failed run and runs again after it", async () => {
    const named = pgliteNamedStatementClient(pg, "row_by_branch");
    const byBranch = "select id from rows where branch = $1 order by id";
    await expect(named.query(byBranch, ["not a uuid"])).rejects.toThrow(/uuid/);
    expect((await named.query(byBranch, ["00000000-0000-4000-8000-000000000002"])).rows).toEqual([{ id: 3 }]);
    expect((await pg.query("select 1 as one")).rows).toEqual([{ one: 1 }]);
  });
});
