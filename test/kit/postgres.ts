/**
 * How integration tests reach a scratch PostgreSQL database the way production does (ADR 0019):
 * migrations as the owner role (TEST_DATABASE_URL, which also makes the scratch databases), the
 * queries under test as the app role (TEST_APP_DATABASE_URL, made by scripts/ci-postgres.sh).
 * Without TEST_APP_DATABASE_URL everything runs as the owner, as before.
 */
export function scratchPostgresSettings(ownerBaseUrl: string, databaseName: string): { databaseUrl: string; migrationDatabaseUrl?: string } {
  const ownerUrl = withDatabase(ownerBaseUrl, databaseName);
  const appBaseUrl = process.env.TEST_APP_DATABASE_URL;
  if (!appBaseUrl) return { databaseUrl: ownerUrl };
  return { databaseUrl: withDatabase(appBaseUrl, databaseName), migrationDatabaseUrl: ownerUrl };
}

export function withDatabase(url: string, databaseName: string): string {
  const next = new URL(url);
  next.pathname = `/${databaseName}`;
  return next.toString();
}

/**
 * Drops a scratch database once its last connection has gone. The backends of a pool just closed
 * take a moment to exit, and `DROP … WITH (FORCE)` would try to end them itself — which the owner
 * role may not do to the app role's ("must be a member of the role whose process is being
 * terminated"). So: wait (up to 10 s) until nobody is connected, then drop.
 */
export async function dropScratchDatabase(ownerBaseUrl: string, databaseName: string): Promise<void> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: ownerBaseUrl });
  await client.connect();
  try {
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      const { rows } = await client.query<{ connected: number }>("SELECT count(*)::int AS connected FROM pg_stat_activity WHERE datname = $1", [databaseName]);
      if ((rows[0]?.connected ?? 0) === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await client.query(`DROP DATABASE IF EXISTS "${databaseName.replace(/"/g, '""')}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
