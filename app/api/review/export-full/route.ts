import { z } from "zod";
import { staffRoute } from "@/lib/auth/route";
import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { getPiiKeys } from "@/lib/pii";
import { exportFullIdTokens } from "@/lib/review/export";
import { parseListQuery } from "@/lib/review/filters";

export const dynamic = "force-dynamic";

const formSchema = z.object({
  filters: z.string().max(2_000).default(""),
  reason: z.string().trim().min(10, "Say why you need the full numbers (at least 10 characters).").max(300),
});

/**
 * POST /api/review/export-full (form: filters, reason) — head office only: the CSV with full ID
 * numbers. A POST so the reason travels in the body; refused from another origin, or without
 * the browser's word on where it came from (lib/auth/request-origin.ts).
 */
export const POST = staffRoute({ permission: "tokens.export_full_ids", ownOriginOnly: "post" }, async ({ request, staff, scope, requestId }) => {
  // A body that is not a form (a script posting JSON, say) is refused as such, not a 500.
  const form = await request.formData().catch(() => {
    throw new AppError("VALIDATION", "export-full body is not a form", { fieldErrors: { reason: ["Send the export form as a form."] } });
  });
  const parsed = formSchema.safeParse({ filters: form.get("filters") ?? "", reason: form.get("reason") ?? "" });
  if (!parsed.success) {
    throw new AppError("VALIDATION", "export-full form refused", { fieldErrors: { reason: parsed.error.issues.map((issue) => issue.message) } });
  }
  const { query } = parseListQuery(new URLSearchParams(parsed.data.filters));
  return exportFullIdTokens(await getDb(), getPiiKeys(), { staff, scope, requestId }, query, parsed.data.reason);
});
