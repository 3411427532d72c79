ALTER TABLE "risk_cases" ADD COLUMN "close_proposed_state" "risk_case_state";--> statement-breakpoint
-- A clearing proposed before this migration is a proposal to close as cleared.
UPDATE "risk_cases" SET "close_proposed_state" = 'cleared' WHERE "clear_proposed_by_user_id" IS NOT NULL;
