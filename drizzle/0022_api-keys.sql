CREATE TYPE "public"."api_key_status" AS ENUM('pending', 'active', 'rejected', 'cancelled');--> statement-breakpoint
CREATE TABLE "api_idempotency" (
	"service_user_id" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"request_hash" text NOT NULL,
	"status" text DEFAULT 'in_flight' NOT NULL,
	"response_status" integer,
	"response_body" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone NOT NULL,
	CONSTRAINT "api_idempotency_service_user_id_idempotency_key_pk" PRIMARY KEY("service_user_id","idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"environment" text NOT NULL,
	"status" "api_key_status" DEFAULT 'pending' NOT NULL,
	"key_hash" text,
	"key_hint" text,
	"service_user_id" text,
	"scopes" text[] NOT NULL,
	"branch_ids" uuid[] NOT NULL,
	"rate_limit_per_minute" integer DEFAULT 60 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"rolled_from_id" uuid,
	"proposed_by_user_id" text NOT NULL,
	"proposed_by_username" text NOT NULL,
	"proposed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_by_user_id" text,
	"decided_by_username" text,
	"decided_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"revoked_by_username" text,
	"last_used_at" timestamp with time zone,
	CONSTRAINT "api_keys_key_hash_unique" UNIQUE("key_hash")
);
--> statement-breakpoint
CREATE TABLE "api_rate_windows" (
	"api_key_id" uuid NOT NULL,
	"window_started_at" timestamp with time zone NOT NULL,
	"requests" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "api_rate_windows_api_key_id_window_started_at_pk" PRIMARY KEY("api_key_id","window_started_at")
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_service_user_id_auth_users_id_fk" FOREIGN KEY ("service_user_id") REFERENCES "public"."auth_users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_idempotency_created_idx" ON "api_idempotency" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "api_keys_status_idx" ON "api_keys" USING btree ("status","proposed_at");