"use server";

import { defineAction } from "@/lib/actions";
import { getDb } from "@/lib/db/client";
import { addNote, decideCase, takeCase } from "@/lib/risk/cases";
import { caseDecisionSchema, caseNoteSchema, caseTakeSchema } from "@/lib/risk/case-schemas";

/** Each refuses a case not routed to the caller as NOT_FOUND (lib/risk/cases.ts), and is audited. */
export const addCaseNoteAction = defineAction({ name: "risk.case_note", schema: caseNoteSchema, permission: "risk.cases" }, async ({ input, staff }) => {
  await addNote(await getDb(), staff, input.caseId, input.body);
  return { saved: true };
});

export const takeCaseAction = defineAction({ name: "risk.case_take", schema: caseTakeSchema, permission: "risk.cases" }, async ({ input, staff }) => {
  await takeCase(await getDb(), staff, input.caseId);
  return { taken: true };
});

export const decideCaseAction = defineAction({ name: "risk.case_decide", schema: caseDecisionSchema, permission: "risk.cases" }, async ({ input, staff }) =>
  decideCase(await getDb(), staff, input.caseId, input.decision, input.reason),
);
