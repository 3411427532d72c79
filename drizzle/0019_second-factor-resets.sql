CREATE TABLE "second_factor_resets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"status" "role_approval_status" DEFAULT 'pending' NOT NULL,
	"subject_user_id" text NOT NULL,
	"reason" text NOT NULL,
	"proposed_by_user_id" text NOT NULL,
	"proposed_by_username" text NOT NULL,
	"proposed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_by_user_id" text,
	"decided_by_username" text,
	"decided_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "second_factor_resets" ADD CONSTRAINT "second_factor_resets_subject_user_id_auth_users_id_fk" FOREIGN KEY ("subject_user_id") REFERENCES "public"."auth_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "second_factor_resets_pending_subject_idx" ON "second_factor_resets" USING btree ("subject_user_id") WHERE status = 'pending';