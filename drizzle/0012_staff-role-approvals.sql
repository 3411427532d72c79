CREATE TYPE "public"."role_approval_kind" AS ENUM('create', 'role_change');--> statement-breakpoint
CREATE TYPE "public"."role_approval_status" AS ENUM('pending', 'approved', 'rejected', 'cancelled');--> statement-breakpoint
CREATE TABLE "staff_role_approvals" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" "role_approval_kind" NOT NULL,
	"status" "role_approval_status" DEFAULT 'pending' NOT NULL,
	"subject_user_id" text,
	"username" text NOT NULL,
	"name" text NOT NULL,
	"role" "staff_role" NOT NULL,
	"branch_id" uuid NOT NULL,
	"from_role" "staff_role",
	"from_branch_id" uuid,
	"proposed_by_user_id" text NOT NULL,
	"proposed_by_username" text NOT NULL,
	"proposed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_by_user_id" text,
	"decided_by_username" text,
	"decided_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "staff_role_approvals" ADD CONSTRAINT "staff_role_approvals_branch_id_branches_id_fk" FOREIGN KEY ("branch_id") REFERENCES "public"."branches"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "staff_role_approvals_pending_subject_idx" ON "staff_role_approvals" USING btree ("subject_user_id") WHERE status = 'pending' AND subject_user_id IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "staff_role_approvals_pending_username_idx" ON "staff_role_approvals" USING btree ("username") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "staff_role_approvals_status_idx" ON "staff_role_approvals" USING btree ("status","proposed_at");