CREATE TABLE "upstream_call_budget" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"window_started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"calls_in_window" integer DEFAULT 0 NOT NULL,
	"paused_until" timestamp with time zone,
	"pause_reason" text,
	"deferred_since" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "token_requests" ADD COLUMN "last_viewed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "upstream_call_budget" ADD CONSTRAINT "upstream_call_budget_one_row" CHECK ("id" = 1);--> statement-breakpoint
INSERT INTO "upstream_call_budget" ("id") VALUES (1) ON CONFLICT DO NOTHING;
