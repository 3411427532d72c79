import { z } from "zod";
import type { FieldRule, RuleValue } from "./form-check";
import { deliveryProblem, fingerprintTokenFieldRules, remoteCommonFieldRules, remoteIdFieldRules } from "./token-form-rules";
import { idTypeMessage, type FingerprintTokenFormInput, type RemoteTokenFormInput } from "./token-form-shape";

/**
 * The two token forms as the server parses them: zod schemas built from the same field rules the
 * browser checks with (`token-form-rules.ts`; token-forms.test.ts holds the two to the same
 * answers). Only the server loads zod: the browser checks with the rules alone (ADR 0034).
 */

/** A field of a zod schema that answers exactly what its rule answers. */
function fieldFromRule<Input, Value>(rule: FieldRule<Value>) {
  return z.custom<Input>(() => true).transform((raw, context) => {
    const checked = rule(raw);
    if (checked.ok) return checked.value;
    context.addIssue({ code: "custom", message: checked.message });
    return z.NEVER;
  });
}

/** A schema shape from a set of rules, each field typed by what the form puts in it. */
function shapeFromRules<Input, Rules extends Record<string, FieldRule<unknown>>>(rules: Rules) {
  return Object.fromEntries(Object.entries(rules).map(([name, rule]) => [name, fieldFromRule(rule)])) as {
    [Name in keyof Rules]: ReturnType<typeof fieldFromRule<Name extends keyof Input ? Input[Name] : never, RuleValue<Rules[Name]>>>;
  };
}

// ─── Fingerprint ─────────────────────────────────────────────────────────────────────────────────

export const fingerprintTokenFormSchema = z.object(shapeFromRules<FingerprintTokenFormInput, typeof fingerprintTokenFieldRules>(fingerprintTokenFieldRules));

// ─── Remote ──────────────────────────────────────────────────────────────────────────────────────

type RemoteInputOf<Type extends RemoteTokenFormInput["idType"]> = Extract<RemoteTokenFormInput, { idType: Type }>;

const remoteCommonShape = {
  ...shapeFromRules<RemoteTokenFormInput, typeof remoteCommonFieldRules>(remoteCommonFieldRules),
  // The form may leave the e-mail out altogether; the rule answers `undefined` for it either way.
  email: fieldFromRule<string, string | undefined>(remoteCommonFieldRules.email).optional(),
};

/** The delivery rule, checked only once both its fields are themselves valid (as the browser does). */
function requireDelivery<Shape extends z.ZodRawShape>(shape: Shape) {
  return z.object(shape).refine((values) => deliveryProblem(values as unknown as { sendSms: boolean; email?: string }) === null, {
    path: ["sendSms"],
    message: deliveryProblem({ sendSms: false })!,
    when: (payload) => !payload.issues.some((issue) => issue.path?.[0] === "sendSms" || issue.path?.[0] === "email"),
  });
}

/**
 * Builds the remote union, optionally with extra fields on every branch (the action adds its
 * idempotency key). The union stays top-level either way: resolvers mishandle nested ones.
 */
export function buildRemoteTokenSchema<Extra extends z.ZodRawShape>(extra: Extra) {
  return z.discriminatedUnion(
    "idType",
    [
      requireDelivery({
        idType: z.literal("GHANA_CARD"),
        ...shapeFromRules<RemoteInputOf<"GHANA_CARD">, typeof remoteIdFieldRules.GHANA_CARD>(remoteIdFieldRules.GHANA_CARD),
        ...remoteCommonShape,
        ...extra,
      }),
      requireDelivery({
        idType: z.literal("VOTER"),
        ...shapeFromRules<RemoteInputOf<"VOTER">, typeof remoteIdFieldRules.VOTER>(remoteIdFieldRules.VOTER),
        ...remoteCommonShape,
        ...extra,
      }),
      requireDelivery({
        idType: z.literal("PASSPORT"),
        ...shapeFromRules<RemoteInputOf<"PASSPORT">, typeof remoteIdFieldRules.PASSPORT>(remoteIdFieldRules.PASSPORT),
        ...remoteCommonShape,
        ...extra,
      }),
      requireDelivery({
        idType: z.literal("DRIVER_LICENCE"),
        ...shapeFromRules<RemoteInputOf<"DRIVER_LICENCE">, typeof remoteIdFieldRules.DRIVER_LICENCE>(remoteIdFieldRules.DRIVER_LICENCE),
        ...remoteCommonShape,
        ...extra,
      }),
    ],
    { error: idTypeMessage },
  );
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
