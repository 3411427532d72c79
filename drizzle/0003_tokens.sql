CREATE TYPE "public"."token_id_type" AS ENUM('GHANA_CARD', 'VOTER', 'PASSPORT', 'DRIVER_LICENCE');--> statement-breakpoint
CREATE TYPE "public"."token_issue_outcome" AS ENUM('pending', 'issued', 'outcome_unknown', 'rejected', 'failed_upstream');--> statement-breakpoint
CREATE TYPE "public"."token_kind" AS ENUM('fingerprint', 'remote');--> statement-breakpoint
CREATE TABLE "token_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "token_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"token_request_id" uuid NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"type" text NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "token_requests" (
	"id" uuid PRIMARY KEY NOT NULL,
	"idempotency_key" uuid NOT NULL,
	"request_fingerprint" text NOT NULL,
	"kind" "token_kind" NOT NULL,
	"id_type" "token_id_type" NOT NULL,
	"issued_by_user_id" text NOT NULL,
	"branch_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"request_id" text,
	"reference_id" text NOT NULL,
	"purpose" text,
	"branch_name" text,
	"phone_number" text,
	"options" jsonb,
	"id_number_encrypted" text NOT NULL,
	"id_number_index" text NOT NULL,
	"id_number_last4" text NOT NULL,
	"date_of_birth_encrypted" text,
	"email_encrypted" text,
	"outcome" "token_issue_outcome" DEFAULT 'pending' NOT NULL,
	"error_code" text,
	"error_detail" text,
	"settled_at" timestamp with time zone,
	"token" text,
	"issued_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"upstream_message" text,
	"sms_sent_to" text,
	"is_email_sent" boolean DEFAULT false NOT NULL,
	CONSTRAINT "token_requests_idempotency_key_unique" UNIQUE("idempotency_key"),
	CONSTRAINT "token_requests_token_unique" UNIQUE("token")
);
--> statement-breakpoint
ALTER TABLE "token_events" ADD CONSTRAINT "token_events_token_request_id_token_requests_id_fk" FOREIGN KEY ("token_request_id") REFERENCES "public"."token_requests"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "token_requests" ADD CONSTRAINT "token_requests_issued_by_user_id_auth_users_id_fk" FOREIGN KEY ("issued_by_user_id") REFERENCES "public"."auth_users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "token_requests" ADD CONSTRAINT "token_requests_branch_id_branches_id_fk" FOREIGN KEY ("branch_id") REFERENCES "public"."branches"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "token_events_request_at_idx" ON "token_events" USING btree ("token_request_id","at");--> statement-breakpoint
CREATE INDEX "token_requests_id_number_index_idx" ON "token_requests" USING btree ("id_number_index","created_at");--> statement-breakpoint
CREATE INDEX "token_requests_branch_created_idx" ON "token_requests" USING btree ("branch_id","created_at");--> statement-breakpoint
CREATE INDEX "token_requests_issued_by_created_idx" ON "token_requests" USING btree ("issued_by_user_id","created_at");--> statement-breakpoint
CREATE INDEX "token_requests_outcome_created_idx" ON "token_requests" USING btree ("outcome","created_at");