import { z } from "zod";
import { driverLicenceNumberSchema, dateOfBirthSchema, passportNumberSchema, voterIdSchema } from "./identity-documents";
import { ghanaCardNumberSchema } from "./ghana-card";
import { ghanaMobileSchema } from "./phone";
import { optionalEmailSchema, purposeSchema, referenceSchema } from "./text-fields";

/**
 * The two token forms, one schema each, shared by the browser (react-hook-form's resolver) and
 * the server action (which parses again: the browser is not trusted). Field names are the app's;
 * `remote-token-payload.ts` is the one place that renames them to the service's.
 *
 * Every transform is idempotent (normalising a normalised value changes nothing), so what the
 * browser sends after its own parse passes the server's parse unchanged.
 */

export const ID_TYPES = ["GHANA_CARD", "VOTER", "PASSPORT", "DRIVER_LICENCE"] as const;
export type IdType = (typeof ID_TYPES)[number];

export const idTypeLabels: Record<IdType, string> = {
  GHANA_CARD: "Ghana Card",
  VOTER: "Voter ID",
  PASSPORT: "Passport",
  DRIVER_LICENCE: "Driver licence",
};

// ─── Consent (issue 14) ──────────────────────────────────────────────────────────────────────────

export const consentMessages = {
  required: "Confirm that you told the customer what is checked and that they agreed. Without their consent no token is issued.",
  wordingChanged: "The consent wording changed while this form was open. Read the new wording to the customer, then confirm again.",
} as const;

/**
 * Both forms carry the teller's attestation that the customer was told what is checked and agreed,
 * and which version of the wording they read out (the server checks it is the one in force).
 */
export const consentShape = {
  consentAttested: z.boolean({ error: consentMessages.required }).refine((value) => value, { message: consentMessages.required }),
  consentWordingVersion: z.number({ error: consentMessages.wordingChanged }).int().min(1, { message: consentMessages.wordingChanged }),
};

const emptyConsent = { consentAttested: false, consentWordingVersion: 0 };

// ─── Fingerprint ─────────────────────────────────────────────────────────────────────────────────

/**
 * The branch is not a form field: the server sends the signed-in teller's own branch. The purpose
 * is required although the service makes it optional for fingerprint tokens: the bank's purpose
 * policy (lib/compliance) decides whether a token may be issued at all.
 */
export const fingerprintTokenFormSchema = z.object({
  ghanaCardNumber: ghanaCardNumberSchema,
  referenceId: referenceSchema,
  purpose: purposeSchema,
  ...consentShape,
});

export type FingerprintTokenFormInput = z.input<typeof fingerprintTokenFormSchema>;
export type FingerprintTokenForm = z.output<typeof fingerprintTokenFormSchema>;

export const emptyFingerprintTokenForm: FingerprintTokenFormInput = { ghanaCardNumber: "", referenceId: "", purpose: "", ...emptyConsent };

// ─── Remote ──────────────────────────────────────────────────────────────────────────────────────

/** The ID fields of each type: shown for that type only, cleared when the type changes. */
export const idFieldsByType = {
  GHANA_CARD: ["ghanaCardNumber"],
  VOTER: ["voterId"],
  PASSPORT: ["passportNumber"],
  DRIVER_LICENCE: ["driverLicenceNumber", "dateOfBirth"],
} as const satisfies Record<IdType, readonly string[]>;

export type IdFieldName = (typeof idFieldsByType)[IdType][number];

export const remoteOptionNames = ["sendSms", "skipInstructions", "captureLocation", "captureHomeAddress", "livenessOnly"] as const;
export type RemoteOptionName = (typeof remoteOptionNames)[number];

export const deliveryMessage = "Choose how the link reaches the customer: by SMS, by e-mail, or both.";

const remoteCommonShape = {
  phoneNumber: ghanaMobileSchema,
  referenceId: referenceSchema,
  purpose: purposeSchema,
  email: optionalEmailSchema,
  sendSms: z.boolean(),
  skipInstructions: z.boolean(),
  captureLocation: z.boolean(),
  captureHomeAddress: z.boolean(),
  livenessOnly: z.boolean(),
  ...consentShape,
};

/**
 * A remote token nobody can open is useless: the link has to go somewhere. Checked only once
 * both fields are themselves valid, so the message is never stacked on a field error.
 */
function requireDelivery<Shape extends typeof remoteCommonShape & { idType: z.ZodLiteral<IdType> }>(shape: Shape) {
  return z.object(shape).refine(
    (values) => {
      const delivery = values as { sendSms: boolean; email?: string };
      return delivery.sendSms || delivery.email !== undefined;
    },
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
  return z.discriminatedUnion("idType", [
    requireDelivery({ idType: z.literal("GHANA_CARD"), ghanaCardNumber: ghanaCardNumberSchema, ...remoteCommonShape, ...extra }),
    requireDelivery({ idType: z.literal("VOTER"), voterId: voterIdSchema, ...remoteCommonShape, ...extra }),
    requireDelivery({ idType: z.literal("PASSPORT"), passportNumber: passportNumberSchema, ...remoteCommonShape, ...extra }),
    requireDelivery({
      idType: z.literal("DRIVER_LICENCE"),
      driverLicenceNumber: driverLicenceNumberSchema,
      dateOfBirth: dateOfBirthSchema,
      ...remoteCommonShape,
      ...extra,
    }),
  ]);
}

export const remoteTokenFormSchema = buildRemoteTokenSchema({});

export type RemoteTokenFormInput = z.input<typeof remoteTokenFormSchema>;
export type RemoteTokenForm = z.output<typeof remoteTokenFormSchema>;

export const defaultRemoteOptions: Record<RemoteOptionName, boolean> = {
  sendSms: true,
  skipInstructions: false,
  captureLocation: false,
  captureHomeAddress: false,
  livenessOnly: false,
};

export function emptyRemoteTokenForm(idType: IdType = "GHANA_CARD"): RemoteTokenFormInput {
  const common = { phoneNumber: "", referenceId: "", purpose: "", email: "", ...defaultRemoteOptions, ...emptyConsent };
  switch (idType) {
    case "GHANA_CARD":
      return { idType, ghanaCardNumber: "", ...common };
    case "VOTER":
      return { idType, voterId: "", ...common };
    case "PASSPORT":
      return { idType, passportNumber: "", ...common };
    case "DRIVER_LICENCE":
      return { idType, driverLicenceNumber: "", dateOfBirth: "", ...common };
  }
}

/** The ID number of either form, normalised: what is encrypted, indexed and masked. */
export function idNumberOf(values: RemoteTokenForm | (FingerprintTokenForm & { idType?: undefined })): string {
  if (!("idType" in values) || values.idType === undefined) return values.ghanaCardNumber;
  switch (values.idType) {
    case "GHANA_CARD":
      return values.ghanaCardNumber;
    case "VOTER":
      return values.voterId;
    case "PASSPORT":
      return values.passportNumber;
    case "DRIVER_LICENCE":
      return values.driverLicenceNumber;
  }
}

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
