import "server-only";
import { unstable_rethrow } from "next/navigation";
import { getCurrentStaff } from "@/lib/auth/session";
import { logger } from "@/lib/logger";
import { createActionWrapper } from "./wrapper";

/**
 * `defineAction` — the wrapper every server action is built with (see wrapper.ts, ADR 0004).
 *
 *   // app/(staff)/admin/staff/actions.ts
 *   "use server";
 *   export const disableStaff = defineAction(
 *     { name: "staff.disable", schema: z.object({ userId: z.uuid() }), permission: "staff.manage" },
 *     async ({ input, staff, requestId }) => setStaffDisabled(await getDb(), staff, input.userId, true, requestId),
 *   );
 *
 *   // in a client component
 *   const result = await disableStaff({ userId });
 *   if (!result.ok) showError(result.formError);
 */
export const defineAction = createActionWrapper({
  getStaff: getCurrentStaff,
  logger,
  rethrowControlFlow: unstable_rethrow,
});

export type { ActionFailure, ActionResult } from "./result";
export type { ActionContext, ServerAction } from "./wrapper";
