ALTER TABLE "webhook_endpoints" ALTER COLUMN "secret_encrypted" DROP NOT NULL;--> statement-breakpoint
-- A secret made before this migration for an endpoint never approved was shown to its proposer:
-- it goes, and the approval makes a new one that only the approver sees (ADR 0052).
UPDATE "webhook_endpoints" SET "secret_encrypted" = NULL WHERE "status" = 'rejected' OR ("status" <> 'active' AND "decided_at" IS NULL);--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_active_has_secret" CHECK ("webhook_endpoints"."status" <> 'active' OR "webhook_endpoints"."secret_encrypted" IS NOT NULL);
