CREATE TYPE "public"."token_live_state" AS ENUM('waiting', 'in_progress', 'successful', 'failed', 'expired', 'invalid', 'outcome_unknown');--> statement-breakpoint
CREATE TYPE "public"."token_result_status" AS ENUM('SUCCESSFUL', 'FAILED');--> statement-breakpoint
ALTER TABLE "token_requests" ADD COLUMN "live_state" "token_live_state";--> statement-breakpoint
ALTER TABLE "token_requests" ADD COLUMN "next_poll_at" timestamp with time zone DEFAULT now();--> statement-breakpoint
ALTER TABLE "token_requests" ADD COLUMN "lease_owner" text;--> statement-breakpoint
ALTER TABLE "token_requests" ADD COLUMN "lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "token_requests" ADD COLUMN "poll_failures" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "token_requests" ADD COLUMN "last_checked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "token_requests" ADD COLUMN "last_answer_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "token_requests" ADD COLUMN "last_upstream_state" text;--> statement-breakpoint
ALTER TABLE "token_requests" ADD COLUMN "last_upstream_state_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "token_requests" ADD COLUMN "used_seen_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "token_requests" ADD COLUMN "invalid_seen_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "token_requests" ADD COLUMN "result_status" "token_result_status";--> statement-breakpoint
ALTER TABLE "token_requests" ADD COLUMN "transaction_number" text;--> statement-breakpoint
ALTER TABLE "token_requests" ADD COLUMN "result_error" text;--> statement-breakpoint
ALTER TABLE "token_requests" ADD COLUMN "result_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "token_requests" ADD COLUMN "last_fault_code" text;--> statement-breakpoint
ALTER TABLE "token_requests" ADD COLUMN "last_fault_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "token_requests" ADD COLUMN "fault_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "token_requests" ADD COLUMN "finished_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "token_requests_due_poll_idx" ON "token_requests" USING btree ("next_poll_at") WHERE "token_requests"."outcome" = 'issued' and "token_requests"."finished_at" is null;