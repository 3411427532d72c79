import { z } from "zod";
import { deliveryProblem, fingerprintTokenFieldRules, remoteCommonFieldRules, remoteIdFieldRules } from "./token-form-rules";
import { ID_TYPES, type IdType } from "@/lib/domain/id-types";
import { deliveryMessage, idTypeMessage, type FingerprintTokenFormInput, type RemoteTokenForm, type RemoteTokenFormInput } from "./token-form-shape";
import { fieldFromRule, shapeFromRules } from "./zod-from-rules";

/**
 * The two token forms as the server parses them: zod schemas built from the same field rules the
 * browser checks with (`token-form-rules.ts`; token-forms.test.ts holds the two to the same
 * answers). Only the server loads zod: the browser checks with the rules alone (ADR 0034).
 */

// ─── Fingerprint ─────────────────────────────────────────────────────────────────────────────────

export const fingerprintTokenFormSchema = z.object(shapeFromRules<FingerprintTokenFormInput, typeof fingerprintTokenFieldRules>(fingerprintTokenFieldRules));

// ─── Remote ──────────────────────────────────────────────────────────────────────────────────────

const remoteCommonShape = {
  ...shapeFromRules<RemoteTokenFormInput, typeof remoteCommonFieldRules>(remoteCommonFieldRules),
  // The form may leave the e-mail out altogether; the rule answers `undefined` for it either way.
  email: fieldFromRule<string, string | undefined>(remoteCommonFieldRules.email).optional(),
};

/**
 * One ID type's branch of the union: its ID fields, the common ones and `extra`, with the delivery
 * rule checked only once both its fields are themselves valid (as the browser does).
 */
function remoteBranch<Type extends IdType, Extra extends z.ZodRawShape>(idType: Type, extra: Extra) {
  const idFields = shapeFromRules<Extract<RemoteTokenFormInput, { idType: Type }>, (typeof remoteIdFieldRules)[Type]>(remoteIdFieldRules[idType]);
  return z.object({ idType: z.literal(idType), ...idFields, ...remoteCommonShape, ...extra }).refine(
    (values) => deliveryProblem(values as unknown as { sendSms: boolean; email?: string }) === null,
    {
      path: ["sendSms"],
      message: deliveryMessage,
      when: (payload) => !payload.issues.some((issue) => issue.path?.[0] === "sendSms" || issue.path?.[0] === "email"),
    },
  );
}

/**
 * Builds the remote union, optionally with extra fields on every branch (the action adds its
 * idempotency key). The union stays top-level either way: resolvers mishandle nested ones.
 */
export function buildRemoteTokenSchema<Extra extends z.ZodRawShape>(extra: Extra) {
  // One branch per ID type of lib/domain/id-types.ts, none left out by a hand-written list.
  const [first, ...others] = ID_TYPES.map((idType) => remoteBranch(idType, extra));
  const union = z.discriminatedUnion("idType", [first!, ...others], { error: idTypeMessage });
  // Built by mapping the list, the union's inferred type has lost which fields each type has; its
  // type is the form's own, per ID type, as lib/domain/id-types.ts derives it.
  return union as unknown as z.ZodType<RemoteTokenForm & z.output<z.ZodObject<Extra>>, RemoteTokenFormInput & z.input<z.ZodObject<Extra>>>;
}

export const remoteTokenFormSchema = buildRemoteTokenSchema({});

// ─── Action inputs ───────────────────────────────────────────────────────────────────────────────

/**
 * What each submit carries besides the form: the key of this form render (the server refuses a
 * second token for it) and whether the teller chose to go on despite an active token for the
 * same customer.
 */
export const submissionShape = {
  idempotencyKey: z.uuid({ error: "This form has expired. Reload the page and try again." }),
  allowDuplicate: z.boolean().default(false),
};

export const fingerprintTokenActionSchema = fingerprintTokenFormSchema.extend(submissionShape);
export const remoteTokenActionSchema = buildRemoteTokenSchema(submissionShape);

export type FingerprintTokenActionInput = z.input<typeof fingerprintTokenActionSchema>;
export type RemoteTokenActionInput = z.input<typeof remoteTokenActionSchema>;
