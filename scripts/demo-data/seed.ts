import "server-only";
import type { Database } from "@/lib/db/types";
import { env } from "@/lib/env";
import { getPiiKeys } from "@/lib/pii";
import { DEMO_SEED, planDemoData } from "./plan";
import { writeDemoData, type DemoWriteReport } from "./writer";

/**
 * `npm run db:seed -- --demo`: five branches, their tellers and 30 days of tokens in every state,
 * with history, so the review screens mean something on first start. Local and test runs only.
 * Run after the staff seed (its demo tellers get tokens of their own). Idempotent.
 */
export async function seedReviewDemoData(db: Database, options: { totalTokens?: number; now?: Date } = {}): Promise<DemoWriteReport> {
  if (env().APP_ENV === "production") throw new Error("Refusing to write demo tokens: APP_ENV=production.");
  const plan = planDemoData({ seed: DEMO_SEED, now: options.now ?? new Date(), totalTokens: options.totalTokens ?? 3_000 });
  return writeDemoData(db, plan, { keys: getPiiKeys(), withEvents: true });
}
