-- The audit trail is append-only at the database level too: no UPDATE, DELETE or TRUNCATE of
-- audit_events, whatever the application code does. Written by hand (drizzle-kit cannot express
-- triggers); plain PL/pgSQL that PGlite and PostgreSQL both run.
CREATE FUNCTION "audit_events_refuse_change"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_events is append-only: % is not allowed', TG_OP
    USING ERRCODE = 'insufficient_privilege',
          HINT = 'Record a new audit event instead of changing or removing one.';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "audit_events_append_only"
  BEFORE UPDATE OR DELETE ON "audit_events"
  FOR EACH ROW EXECUTE FUNCTION "audit_events_refuse_change"();
--> statement-breakpoint
CREATE TRIGGER "audit_events_no_truncate"
  BEFORE TRUNCATE ON "audit_events"
  FOR EACH STATEMENT EXECUTE FUNCTION "audit_events_refuse_change"();
