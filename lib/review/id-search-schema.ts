import { z } from "zod";
import { reviewIdTypes } from "./filters";

/**
 * The exact-ID-number search form, shared by the form and the server action. The number is
 * normalised and hashed on the server (blind index); it is never put in a URL, a log or the
 * audit trail (ADR 0011).
 */
export const idNumberSearchSchema = z.object({
  idType: z.enum(reviewIdTypes, { error: "Choose the type of ID." }),
  idNumber: z
    .string({ error: "Enter the ID number." })
    .trim()
    .min(4, "Enter the whole ID number — the search finds exact numbers only.")
    .max(40, "That is longer than any ID number."),
});

export type IdNumberSearchInput = z.input<typeof idNumberSearchSchema>;
