import { env } from "@/lib/env";
import type { Database } from "./client";

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
 * unnamed and are parsed on each run, as any other. PGlite ignores the name.
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
      statement = build(db).prepare(isNamed() ? name : "");
      built.set(db, statement);
    }
    return statement;
  };
}
