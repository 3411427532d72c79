import { z } from "zod";
import { isoDaySchema } from "@/lib/validation/query-values";

/** The on-screen sign-off of a branch's day (shared by the form and the action). */
export const signOffSchema = z.object({
  branchId: z.uuid(),
  day: isoDaySchema,
  note: z.string().trim().max(500, "Keep the note under 500 characters."),
});

export type SignOffInput = z.input<typeof signOffSchema>;

/** "This branch's sheet of this day was printed": a real calendar day (never 9999-99-99), a branch id. */
export const sheetPrintedSchema = z.object({
  branchId: z.uuid(),
  day: isoDaySchema,
});
