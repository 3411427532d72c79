ALTER TABLE "token_requests" ADD COLUMN "ms_to_result" integer GENERATED ALWAYS AS (round(extract(epoch from (result_at - issued_at)) * 1000)::integer) STORED;--> statement-breakpoint
CREATE INDEX "token_requests_id_type_created_idx" ON "token_requests" USING btree ("id_type","created_at");--> statement-breakpoint
-- Written by hand below (ADR 0014): the covering index of migration 0006 now carries the stored
-- time to result instead of the two timestamps it is computed from, so the figures read every
-- value they need from the index. Drizzle cannot declare INCLUDE.
DROP INDEX IF EXISTS "token_requests_created_id_idx";--> statement-breakpoint
CREATE INDEX "token_requests_created_id_idx" ON "token_requests" USING btree ("created_at","id") INCLUDE ("branch_id","issued_by_user_id","live_state","outcome","ms_to_result");
