CREATE TYPE "public"."risk_case_state" AS ENUM('open', 'in_review', 'cleared', 'escalated', 'reported', 'not_reported');--> statement-breakpoint
CREATE TYPE "public"."risk_rule_mode" AS ENUM('off', 'shadow', 'live');--> statement-breakpoint
CREATE TYPE "public"."risk_rule_status" AS ENUM('pending', 'active', 'retired', 'rejected');--> statement-breakpoint
CREATE TYPE "public"."risk_severity" AS ENUM('low', 'medium', 'high');--> statement-breakpoint
CREATE TABLE "risk_alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"rule_key" text NOT NULL,
	"rule_version_id" uuid NOT NULL,
	"rule_version" integer NOT NULL,
	"params" jsonb NOT NULL,
	"severity" "risk_severity" NOT NULL,
	"mode" "risk_rule_mode" NOT NULL,
	"subject_type" text NOT NULL,
	"subject_key" text NOT NULL,
	"case_id" uuid,
	"is_open" boolean DEFAULT true NOT NULL,
	"token_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"audit_event_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"counts" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"sentence" text NOT NULL,
	"first_hit_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_hit_at" timestamp with time zone DEFAULT now() NOT NULL,
	"hits" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "risk_case_notes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "risk_case_notes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"case_id" uuid NOT NULL,
	"author_user_id" text NOT NULL,
	"author_label" text NOT NULL,
	"body" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "risk_case_tokens" (
	"case_id" uuid NOT NULL,
	"token_request_id" uuid NOT NULL,
	"held_at" timestamp with time zone DEFAULT now() NOT NULL,
	"released_at" timestamp with time zone,
	CONSTRAINT "risk_case_tokens_case_id_token_request_id_pk" PRIMARY KEY("case_id","token_request_id")
);
--> statement-breakpoint
CREATE TABLE "risk_cases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subject_type" text NOT NULL,
	"subject_key" text NOT NULL,
	"subject_label" text NOT NULL,
	"route_branch_id" uuid,
	"subject_user_id" text,
	"severity" "risk_severity" NOT NULL,
	"state" "risk_case_state" DEFAULT 'open' NOT NULL,
	"assignee_user_id" text,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"suspicion_formed_at" timestamp with time zone,
	"clear_proposed_by_user_id" text,
	"clear_proposed_at" timestamp with time zone,
	"clear_proposed_reason" text,
	"decided_by_user_id" text,
	"decided_at" timestamp with time zone,
	"decision_reason" text
);
--> statement-breakpoint
CREATE TABLE "risk_evaluator_state" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"token_version_cursor" bigint DEFAULT 0 NOT NULL,
	"audit_seq_cursor" bigint DEFAULT 0 NOT NULL,
	"evaluated_at" timestamp with time zone,
	"lease_owner" text,
	"lease_until" timestamp with time zone,
	"last_error" text
);
--> statement-breakpoint
CREATE TABLE "risk_rule_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"rule_key" text NOT NULL,
	"version" integer NOT NULL,
	"params" jsonb NOT NULL,
	"severity" "risk_severity" NOT NULL,
	"mode" "risk_rule_mode" NOT NULL,
	"status" "risk_rule_status" DEFAULT 'pending' NOT NULL,
	"proposed_by_user_id" text,
	"proposed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reason" text,
	"approved_by_user_id" text,
	"approved_at" timestamp with time zone,
	"retired_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "token_requests" ADD COLUMN "phone_number_index" text;--> statement-breakpoint
ALTER TABLE "token_requests" ADD COLUMN "phone_calling_code" text;--> statement-breakpoint
ALTER TABLE "risk_alerts" ADD CONSTRAINT "risk_alerts_rule_version_id_risk_rule_versions_id_fk" FOREIGN KEY ("rule_version_id") REFERENCES "public"."risk_rule_versions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_alerts" ADD CONSTRAINT "risk_alerts_case_id_risk_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."risk_cases"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_case_notes" ADD CONSTRAINT "risk_case_notes_case_id_risk_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."risk_cases"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_case_tokens" ADD CONSTRAINT "risk_case_tokens_case_id_risk_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."risk_cases"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_case_tokens" ADD CONSTRAINT "risk_case_tokens_token_request_id_token_requests_id_fk" FOREIGN KEY ("token_request_id") REFERENCES "public"."token_requests"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "risk_cases" ADD CONSTRAINT "risk_cases_route_branch_id_branches_id_fk" FOREIGN KEY ("route_branch_id") REFERENCES "public"."branches"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "risk_alerts_open_subject_idx" ON "risk_alerts" USING btree ("rule_key","subject_type","subject_key","mode") WHERE is_open;--> statement-breakpoint
CREATE INDEX "risk_alerts_case_idx" ON "risk_alerts" USING btree ("case_id");--> statement-breakpoint
CREATE INDEX "risk_case_notes_case_idx" ON "risk_case_notes" USING btree ("case_id","at");--> statement-breakpoint
CREATE INDEX "risk_case_tokens_held_idx" ON "risk_case_tokens" USING btree ("token_request_id") WHERE released_at is null;--> statement-breakpoint
CREATE UNIQUE INDEX "risk_cases_open_subject_idx" ON "risk_cases" USING btree ("subject_type","subject_key") WHERE state in ('open', 'in_review', 'escalated');--> statement-breakpoint
CREATE INDEX "risk_cases_state_opened_idx" ON "risk_cases" USING btree ("state","opened_at");--> statement-breakpoint
CREATE UNIQUE INDEX "risk_rule_versions_key_version_idx" ON "risk_rule_versions" USING btree ("rule_key","version");--> statement-breakpoint
CREATE UNIQUE INDEX "risk_rule_versions_active_idx" ON "risk_rule_versions" USING btree ("rule_key") WHERE status = 'active';--> statement-breakpoint
CREATE INDEX "token_requests_phone_number_index_idx" ON "token_requests" USING btree ("phone_number_index","created_at");--> statement-breakpoint
-- Written by hand below: the notes of a case are append-only at the database level (as the audit
-- trail is), the evaluator's one state row, and the shipped version 1 of every rule (ADR 0043).
CREATE FUNCTION "risk_case_notes_refuse_change"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'risk_case_notes is append-only: % is not allowed', TG_OP
    USING ERRCODE = 'insufficient_privilege',
          HINT = 'Add a new note instead of changing or removing one.';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "risk_case_notes_append_only"
  BEFORE UPDATE OR DELETE ON "risk_case_notes"
  FOR EACH ROW EXECUTE FUNCTION "risk_case_notes_refuse_change"();
--> statement-breakpoint
INSERT INTO "risk_evaluator_state" ("id") VALUES (1);
--> statement-breakpoint
INSERT INTO "risk_rule_versions" ("rule_key", "version", "params", "severity", "mode", "status", "approved_at", "reason") VALUES
  ('same_id_velocity', 1, '{"windowHours":24,"minTokens":3,"minBranches":2}', 'high', 'live', 'active', now(), 'shipped default'),
  ('retry_then_success', 1, '{"windowHours":72,"minFailures":2}', 'medium', 'live', 'active', now(), 'shipped default'),
  ('mule_phone', 1, '{"windowDays":7,"minIdNumbers":3}', 'high', 'live', 'active', now(), 'shipped default'),
  ('new_phone_after_verified', 1, '{"lookbackDays":365}', 'medium', 'live', 'active', now(), 'shipped default'),
  ('phone_abroad', 1, '{"homeCallingCode":"233"}', 'medium', 'live', 'active', now(), 'shipped default'),
  ('card_fail_then_other_id', 1, '{"windowHours":2}', 'medium', 'live', 'active', now(), 'shipped default'),
  ('teller_failure_rate', 1, '{"minIdNumbers":10,"minFailedShare":0.8,"openHour":8,"closeHour":17}', 'high', 'live', 'active', now(), 'shipped default'),
  ('staff_id_access', 1, '{"maxReveals":20,"maxSearches":30,"maxFullExports":3,"noTokenLookbackDays":30}', 'high', 'live', 'active', now(), 'shipped default'),
  ('fingerprint_two_branches', 1, '{"windowHours":2}', 'high', 'live', 'active', now(), 'shipped default');
