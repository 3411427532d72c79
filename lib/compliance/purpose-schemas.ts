import { z } from "zod";
import { ID_TYPES } from "@/lib/domain/id-types";
import { purposeMaxLength } from "@/lib/validation/text-fields";

/** The purpose admin form's inputs, shared by its dialog (client) and its actions (server). */

const purposeNameSchema = z
  .string()
  .trim()
  .min(3, "Enter the purpose's name (at least 3 characters).")
  .max(purposeMaxLength, `At most ${purposeMaxLength} characters.`)
  // No control characters: the name is sent to the service and printed on slips.
  .refine((value) => !/[\p{Cc}\p{Cf}]/u.test(value), "Remove the invisible or control characters.");

export const purposePolicyShape = {
  name: purposeNameSchema,
  allowsFingerprint: z.boolean(),
  allowsRemote: z.boolean(),
  remoteIdTypes: z.array(z.enum(ID_TYPES)).max(ID_TYPES.length),
  isActive: z.boolean(),
};

type PolicyFlags = { allowsFingerprint: boolean; allowsRemote: boolean; remoteIdTypes: readonly string[] };

/** A policy that allows nothing would offer a purpose no teller can use: refused. */
function checkPolicy(value: PolicyFlags, context: z.RefinementCtx) {
  if (!value.allowsFingerprint && !value.allowsRemote) {
    context.addIssue({ code: "custom", path: ["allowsFingerprint"], message: "Allow fingerprint tokens, remote tokens, or both." });
  }
  if (value.allowsRemote && value.remoteIdTypes.length === 0) {
    context.addIssue({ code: "custom", path: ["remoteIdTypes"], message: "Choose at least one ID document for remote tokens." });
  }
}

export const createPurposeSchema = z.object(purposePolicyShape).superRefine(checkPolicy);
export const updatePurposeSchema = z.object({ ...purposePolicyShape, purposeId: z.uuid() }).superRefine(checkPolicy);

export type PurposePolicyInput = z.output<typeof createPurposeSchema>;
