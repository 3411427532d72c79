import { z } from "zod";

/** What the case pages send (client-safe: the forms check the same rules). */
export const caseNoteSchema = z.object({ caseId: z.uuid(), body: z.string().trim().min(1, "Write the note first.").max(4000) });
export const caseTakeSchema = z.object({ caseId: z.uuid() });
export const caseDecisionSchema = z.object({
  caseId: z.uuid(),
  decision: z.enum(["clear", "escalate", "report", "not_report"]),
  reason: z.string().trim().min(5, "Give the reason for the decision (a sentence).").max(2000),
});
