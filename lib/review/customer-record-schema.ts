import { z } from "zod";
import { idNumberSearchSchema } from "@/lib/review/id-search-schema";

/**
 * The customer's own records (ADR 0022): the ID number is POSTed (a server action), never put in a
 * URL, and every request carries a reason a colleague could check later.
 */
const reasonSchema = (what: string) =>
  z
    .string({ error: `Say why ${what}.` })
    .trim()
    .min(10, `Say why ${what}, in a few words (at least 10 characters).`)
    .max(300, "Keep the reason under 300 characters.")
    .refine((value) => !/[\u0000-\u001f\u007f]/.test(value), "Remove control characters from the reason.");

export const customerRecordRequestSchema = idNumberSearchSchema.extend({ reason: reasonSchema("you are producing this record (e.g. the customer's written request)") });
export const customerErasureRequestSchema = idNumberSearchSchema.extend({ reason: reasonSchema("the customer's data is erased (e.g. their written request)") });

export const legalHoldSchema = z.object({
  tokenRequestId: z.uuid("This token cannot be found."),
  reason: reasonSchema("the token is held (e.g. the court order or inquiry reference)"),
});

export type CustomerRecordRequest = z.input<typeof customerRecordRequestSchema>;
