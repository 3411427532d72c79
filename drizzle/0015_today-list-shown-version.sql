-- The version of what a viewer sees of a token row, kept by the database (ADR 0033). The poll
-- routes compare it instead of an md5 of every row's shown columns on each poll (ADR 0031).
-- Generated: the sequence and the column; its default numbers the rows that exist now (a volatile
-- default is evaluated for each row as the table is rewritten), so nothing needs a backfill pass.
-- Hand-written: the trigger below, plain PL/pgSQL that PGlite and PostgreSQL both run, every name
-- schema-qualified and each function's search_path pinned (as in audit-hash-chain). The app role
-- calls nextval through it: it has USAGE on every sequence (lib/db/client.ts, after every
-- migration), never UPDATE, so it cannot set the sequence back and give a version twice.
CREATE SEQUENCE "public"."token_requests_shown_version_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
ALTER TABLE "token_requests" ADD COLUMN "shown_version" bigint DEFAULT nextval('public.token_requests_shown_version_seq') NOT NULL;--> statement-breakpoint
-- What the comparison leaves out: the columns no viewer sees (`unshownTokenColumns` in
-- lib/watcher/live-token-view.ts; lib/watcher/shown-version.integration.test.ts fails when the two
-- lists differ), the version itself, and ms_to_result (generated from issued_at and result_at,
-- which are compared; a BEFORE trigger sees a generated column as null). Every other column
-- counts, so a column added later is shown until it is listed here: a needless new version costs
-- one full read of a list, a missed one would hide a result from a teller.
CREATE FUNCTION "public"."token_requests_unshown_columns"() RETURNS text[]
LANGUAGE sql IMMUTABLE SET search_path = pg_catalog AS $$
  SELECT ARRAY[
    'next_poll_at', 'lease_owner', 'lease_until', 'poll_failures', 'last_checked_at',
    'last_viewed_at', 'last_answer_at', 'last_upstream_state_at',
    'shown_version', 'ms_to_result'
  ]::text[]
$$;
--> statement-breakpoint
-- Whatever an INSERT or UPDATE says about shown_version, this sets it: the sequence's next value
-- on insert and when any other column differs from its old value (IS DISTINCT FROM, on the row
-- as jsonb minus the columns above), the old value otherwise.
CREATE FUNCTION "public"."token_requests_shown_version"() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    NEW.shown_version := nextval('public.token_requests_shown_version_seq');
  ELSIF (to_jsonb(NEW) - public.token_requests_unshown_columns()) IS DISTINCT FROM (to_jsonb(OLD) - public.token_requests_unshown_columns()) THEN
    NEW.shown_version := nextval('public.token_requests_shown_version_seq');
  ELSE
    NEW.shown_version := OLD.shown_version;
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "token_requests_shown_version"
  BEFORE INSERT OR UPDATE ON "public"."token_requests"
  FOR EACH ROW EXECUTE FUNCTION "public"."token_requests_shown_version"();
