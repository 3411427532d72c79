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
