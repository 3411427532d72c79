import "server-only";

/**
 * What the app's role may do once the owner has migrated (ADR 0019): read and write its tables,
 * but only INSERT and SELECT on the audit trail. It owns nothing, so it can neither set the
 * append-only and chain triggers aside nor alter the table. Run after every migration (with the
 * owner connection that migrated), so tables added later are granted too; idempotent.
 */
export async function grantAppRole(owner: { query: (text: string) => Promise<{ rows: unknown[] }> }, appRole: string): Promise<void> {
  const [me] = (await owner.query("SELECT current_user AS name")).rows as { name: string }[];
  if (me?.name === appRole) return;
  const role = `"${appRole.replace(/"/g, '""')}"`;
  await owner.query(`GRANT USAGE ON SCHEMA public TO ${role}`);
  await owner.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${role}`);
  await owner.query(`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO ${role}`);
  await owner.query(`REVOKE UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON public.audit_events FROM ${role}`);
  // The app checks at start that nothing is pending: it reads the migrator's journal.
  await owner.query(`GRANT USAGE ON SCHEMA drizzle TO ${role}`);
  await owner.query(`GRANT SELECT ON drizzle.__drizzle_migrations TO ${role}`);
}

/** The role a connection URL signs in as. */
export function roleOf(databaseUrl: string): string {
  return decodeURIComponent(new URL(databaseUrl).username);
}
