import { env } from "@/lib/env";
import type { Database } from "./types";

/**
 * A statement of a hot path (the poll routes' session check, token read and today fingerprint),
 * built by drizzle once per database instead of on every request, with its values bound as
 * `sql.placeholder`s when it runs.
 *
 * On PostgreSQL it is also prepared under its name, once per connection, so the server parses and
 * plans it once rather than on every poll: that took the token route from about 460 to about 720
 * requests a second on this machine (docs/performance.md, ADR 0032). A transaction-pooling proxy
 * that cannot keep a connection's prepared statements (PgBouncer before 1.21, or without
 * `max_prepared_statements`) needs `DATABASE_NAMED_STATEMENTS=false`: the statements then go
 * unnamed and are parsed on each run, as any other. On PGlite, which drizzle cannot prepare under
 * a name, the statement is built on a database whose client runs it as a named prepared statement
 * (`pglite-named-statement.ts`, ADR 0036), under the same setting.
 */
export function builtOncePerDatabase<Statement>(
  name: string,
  build: (db: Database) => { prepare(name: string): Statement },
  isNamed: () => boolean = () => env().DATABASE_NAMED_STATEMENTS,
): (db: Database) => Statement {
  const built = new WeakMap<Database, Statement>();
  return (db) => {
    let statement = built.get(db);
    if (statement === undefined) {
      const onPglite = (db as DatabaseWithNamedReads)[namedReadsKey];
      statement = onPglite && isNamed() ? build(onPglite(name)).prepare("") : build(db).prepare(isNamed() ? name : "");
      built.set(db, statement);
    }
    return statement;
  };
}

// On the database object itself, under a key shared by every copy of this module: each route's
// server bundle has its own copy, as the database itself is kept on globalThis (client.ts).
export const namedReadsKey = Symbol.for("veridesk.pgliteNamedReads");
type DatabaseWithNamedReads = Database & { [namedReadsKey]?: (name: string) => Database };

/**
 * Called when a PGlite database opens (client.ts): `databaseFor(name)` is the same database seen
 * through a client that runs its one read as the statement prepared under `name`.
 */
export function runPgliteReadsAsNamedStatements(db: Database, databaseFor: (name: string) => Database): void {
  (db as DatabaseWithNamedReads)[namedReadsKey] = databaseFor;
}
