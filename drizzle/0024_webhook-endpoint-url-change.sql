ALTER TABLE "webhook_endpoints" ADD COLUMN "proposed_url" text;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "url_proposed_by_user_id" text;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "url_proposed_by_username" text;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "url_proposed_at" timestamp with time zone;