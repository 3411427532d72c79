import type { Permission } from "@/lib/auth/permissions";

/**
 * The permission every review page, route and action requires. Tellers hold `tokens.view` (their
 * branch's live tokens) but must not reach review, so review needs a right of its own.
 * PHASE-1: `tokens.export` (held by exactly the supervisor roles) stands in until
 * `tokens.review` is in the permission table (ADR 0003's table, lib/auth/permissions.ts).
 */
export const REVIEW_PERMISSION: Permission = "tokens.export";
