-- A legal hold placed by head office may be released only by head office (issue 21): the row says
-- who placed it, as it was when placed. Generated: the column.
ALTER TABLE "token_requests" ADD COLUMN "legal_hold_by_head_office" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Hand-written: a hold placed before this migration is head office's when its placer is a
-- head-office supervisor now (the role at the time was not kept; it is the nearest fact there is).
UPDATE "token_requests" SET "legal_hold_by_head_office" = true
 WHERE "legal_hold_at" IS NOT NULL
   AND "legal_hold_by_user_id" IN (SELECT "user_id" FROM "staff_profiles" WHERE "role" = 'head_office_supervisor');
