CREATE TYPE "public"."webhook_secret_rotation_status" AS ENUM('pending', 'approved', 'rejected', 'cancelled');--> statement-breakpoint
CREATE TABLE "webhook_secret_rotations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"endpoint_id" uuid NOT NULL,
	"overlap_hours" integer NOT NULL,
	"status" "webhook_secret_rotation_status" DEFAULT 'pending' NOT NULL,
	"proposed_by_user_id" text NOT NULL,
	"proposed_by_username" text NOT NULL,
	"proposed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_by_user_id" text,
	"decided_by_username" text,
	"decided_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "webhook_secret_rotations" ADD CONSTRAINT "webhook_secret_rotations_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_secret_rotations_one_waiting_idx" ON "webhook_secret_rotations" USING btree ("endpoint_id") WHERE status = 'pending';