-- The audit trail as a hash chain (ADR 0019). Each event carries chain_seq, prev_hash and hash,
-- set by a BEFORE INSERT trigger under an advisory lock, so every writer is chained alike and
-- parallel transactions never chain to the same event. The events recorded before this migration
-- are chained here, in id order. lib/audit/chain.ts recomputes the same hash in TypeScript.
-- Hand-written parts: plain PL/pgSQL that PGlite and PostgreSQL both run; every name is
-- schema-qualified and each function pins its search_path, so a session's temporary table or
-- function cannot stand in for the real ones.
ALTER TABLE "audit_events" ADD COLUMN "chain_seq" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "prev_hash" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "hash" text DEFAULT '' NOT NULL;--> statement-breakpoint
-- One field of the hashed text: `<octets>:<text>;`, or `-;` for null, so no two different
-- events encode alike (a field cannot swallow its neighbour).
CREATE FUNCTION "public"."audit_chain_field"(value text) RETURNS text
LANGUAGE sql IMMUTABLE SET search_path = pg_catalog AS $$
  SELECT CASE WHEN value IS NULL THEN '-;' ELSE octet_length(value)::text || ':' || value || ';' END
$$;
--> statement-breakpoint
-- hash = hex(SHA-256(prev_hash || "\n" || fields)); `at` as epoch microseconds, `details` as
-- PostgreSQL's canonical jsonb text.
CREATE FUNCTION "public"."audit_event_hash"(prev_hash text, e "public"."audit_events") RETURNS text
LANGUAGE sql STABLE SET search_path = pg_catalog AS $$
  SELECT encode(sha256(convert_to(
    prev_hash || E'\n'
      || public.audit_chain_field(e.id::text)
      || public.audit_chain_field(e.chain_seq::text)
      || public.audit_chain_field(((extract(epoch FROM e.at) * 1000000)::bigint)::text)
      || public.audit_chain_field(e.actor_user_id)
      || public.audit_chain_field(e.actor_label)
      || public.audit_chain_field(e.action)
      || public.audit_chain_field(e.subject_type)
      || public.audit_chain_field(e.subject_id)
      || public.audit_chain_field(e.branch_id::text)
      || public.audit_chain_field(e.details::text)
      || public.audit_chain_field(e.request_id),
    'UTF8')), 'hex')
$$;
--> statement-breakpoint
-- Chaining the events already recorded: the append-only trigger is set aside for this one
-- UPDATE pass by the migration (which runs as the table's owner) and put back at once.
ALTER TABLE "audit_events" DISABLE TRIGGER "audit_events_append_only";--> statement-breakpoint
DO $$
DECLARE
  event public.audit_events;
  seq bigint := 0;
  previous text := repeat('0', 64);
  digest text;
BEGIN
  FOR event IN SELECT * FROM public.audit_events ORDER BY id LOOP
    seq := seq + 1;
    event.chain_seq := seq;
    digest := public.audit_event_hash(previous, event);
    UPDATE public.audit_events SET chain_seq = seq, prev_hash = previous, hash = digest WHERE id = event.id;
    previous := digest;
  END LOOP;
END
$$;
--> statement-breakpoint
ALTER TABLE "audit_events" ENABLE TRIGGER "audit_events_append_only";--> statement-breakpoint
CREATE UNIQUE INDEX "audit_events_chain_seq_idx" ON "audit_events" USING btree ("chain_seq");--> statement-breakpoint
-- Whatever an INSERT says about chain_seq, prev_hash and hash, this sets them. The advisory lock
-- (held to the end of the transaction) makes the read of the last link and the new link one step;
-- the unique index on chain_seq refuses a fork should a snapshot ever miss the last link.
CREATE FUNCTION "public"."audit_events_chain"() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog AS $$
DECLARE
  last_seq bigint;
  last_hash text;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('veridesk:audit-chain'));
  SELECT chain_seq, hash INTO last_seq, last_hash FROM public.audit_events ORDER BY chain_seq DESC LIMIT 1;
  NEW.chain_seq := coalesce(last_seq, 0) + 1;
  NEW.prev_hash := coalesce(last_hash, repeat('0', 64));
  NEW.hash := public.audit_event_hash(NEW.prev_hash, NEW);
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "audit_events_chain"
  BEFORE INSERT ON "audit_events"
  FOR EACH ROW EXECUTE FUNCTION "public"."audit_events_chain"();
