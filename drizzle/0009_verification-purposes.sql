CREATE TABLE "verification_purposes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"allows_fingerprint" boolean NOT NULL,
	"allows_remote" boolean NOT NULL,
	"remote_id_types" "token_id_type"[] NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "verification_purposes_name_unique" UNIQUE("name")
);
--> statement-breakpoint
ALTER TABLE "token_requests" ADD COLUMN "purpose_id" uuid;--> statement-breakpoint
ALTER TABLE "token_requests" ADD CONSTRAINT "token_requests_purpose_id_verification_purposes_id_fk" FOREIGN KEY ("purpose_id") REFERENCES "public"."verification_purposes"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "token_requests_purpose_created_idx" ON "token_requests" USING btree ("purpose","created_at");--> statement-breakpoint
-- The default policy every database starts with (hand-added; the bank's admins change it on
-- /admin/purposes). Bank of Ghana: the Ghana Card is the identity document for opening an account.
INSERT INTO "verification_purposes" ("name", "allows_fingerprint", "allows_remote", "remote_id_types") VALUES
	('Account opening', true, true, ARRAY['GHANA_CARD']::"token_id_type"[]),
	('KYC refresh', true, true, ARRAY['GHANA_CARD','VOTER','PASSPORT','DRIVER_LICENCE']::"token_id_type"[]),
	('Loan application', true, true, ARRAY['GHANA_CARD','VOTER','PASSPORT','DRIVER_LICENCE']::"token_id_type"[]),
	('Loan disbursement', true, true, ARRAY['GHANA_CARD','VOTER','PASSPORT','DRIVER_LICENCE']::"token_id_type"[]),
	('Cash withdrawal', true, false, ARRAY[]::"token_id_type"[]),
	('Card replacement', true, true, ARRAY['GHANA_CARD','PASSPORT']::"token_id_type"[]),
	('Account update', true, true, ARRAY['GHANA_CARD','VOTER','PASSPORT','DRIVER_LICENCE']::"token_id_type"[]);
