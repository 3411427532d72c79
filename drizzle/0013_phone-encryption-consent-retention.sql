CREATE TABLE "consent_wordings" (
	"version" integer PRIMARY KEY NOT NULL,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by_user_id" text
);
--> statement-breakpoint
ALTER TABLE "token_requests" ALTER COLUMN "reference_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "token_requests" ALTER COLUMN "id_number_encrypted" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "token_requests" ALTER COLUMN "id_number_index" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "token_requests" ALTER COLUMN "id_number_last4" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "token_requests" ADD COLUMN "reference_encrypted" text;--> statement-breakpoint
ALTER TABLE "token_requests" ADD COLUMN "reference_index" text;--> statement-breakpoint
ALTER TABLE "token_requests" ADD COLUMN "phone_number_encrypted" text;--> statement-breakpoint
ALTER TABLE "token_requests" ADD COLUMN "sms_sent_to_encrypted" text;--> statement-breakpoint
ALTER TABLE "token_requests" ADD COLUMN "consent_attested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "token_requests" ADD COLUMN "consent_wording_version" integer;--> statement-breakpoint
ALTER TABLE "token_requests" ADD COLUMN "contact_erased_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "token_requests" ADD COLUMN "contact_erased_under" text;--> statement-breakpoint
ALTER TABLE "token_requests" ADD COLUMN "identity_erased_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "token_requests" ADD COLUMN "identity_erased_under" text;--> statement-breakpoint
ALTER TABLE "token_requests" ADD COLUMN "legal_hold_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "token_requests" ADD COLUMN "legal_hold_by_user_id" text;--> statement-breakpoint
ALTER TABLE "token_requests" ADD COLUMN "legal_hold_reason" text;--> statement-breakpoint
ALTER TABLE "consent_wordings" ADD CONSTRAINT "consent_wordings_created_by_user_id_auth_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."auth_users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "token_requests" ADD CONSTRAINT "token_requests_legal_hold_by_user_id_auth_users_id_fk" FOREIGN KEY ("legal_hold_by_user_id") REFERENCES "public"."auth_users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "token_requests_reference_index_idx" ON "token_requests" USING btree ("reference_index","created_at");--> statement-breakpoint
-- Issue 14: the consent wording in force until an admin publishes another (version 2, 3, …).
INSERT INTO "consent_wordings" ("version", "text") VALUES (1, 'I told the customer that the bank will check their identity document with the national identity verification service for the purpose selected, that the result and a record of this check are kept as the law requires (at least five years), and the customer agreed to the check.');--> statement-breakpoint
-- Issue 12 finding 7: reference_id, phone_number and sms_sent_to now hold only a masked display
-- copy. Rows written before hold the clear values until lib/pii/backfill.ts (run by every
-- migrate, right after this file) encrypts them into the *_encrypted columns and masks these.
CREATE INDEX "token_requests_phone_backfill_idx" ON "token_requests" ("id") WHERE "reference_encrypted" IS NULL AND "reference_id" IS NOT NULL AND "contact_erased_at" IS NULL;
