-- An audit event's time is the database's, never the writer's: the chain trigger of
-- audit-hash-chain now also sets `at`, so the app role cannot record an event dated in the past
-- (or future) that still verifies. clock_timestamp() is read after the chain's advisory lock, so
-- `at` grows with chain_seq even across parallel transactions (now() is the transaction's start,
-- which may be earlier than the event chained before it). The hash is unchanged, so every event
-- recorded before this migration keeps its `at` and still verifies.
-- Hand-written, like audit-hash-chain: plain PL/pgSQL that PGlite and PostgreSQL both run, names
-- schema-qualified, search_path pinned.
CREATE OR REPLACE FUNCTION "public"."audit_events_chain"() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog AS $$
DECLARE
  last_seq bigint;
  last_hash text;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('veridesk:audit-chain'));
  NEW.at := pg_catalog.clock_timestamp();
  SELECT chain_seq, hash INTO last_seq, last_hash FROM public.audit_events ORDER BY chain_seq DESC LIMIT 1;
  NEW.chain_seq := coalesce(last_seq, 0) + 1;
  NEW.prev_hash := coalesce(last_hash, repeat('0', 64));
  NEW.hash := public.audit_event_hash(NEW.prev_hash, NEW);
  RETURN NEW;
END;
$$;
