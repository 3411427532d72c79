-- Supervisor review (issue 7, ADR 0010), written by hand: Drizzle cannot declare INCLUDE.
-- One index serves the newest-first token list over all branches, the keyset pages of the CSV
-- export on (created_at, id), and the figures over a date range, which PostgreSQL answers with
-- an index-only scan from the included columns instead of reading the wide token rows.
CREATE INDEX "token_requests_created_id_idx" ON "token_requests" USING btree ("created_at","id") INCLUDE ("branch_id","issued_by_user_id","live_state","outcome","issued_at","result_at");
