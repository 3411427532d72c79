/**
 * What the two token forms hold, without the rules that check it: the ID types and their fields,
 * the options, the empty forms, the types and the form-wide messages. Plain data only, so a form
 * page renders from it without loading any validator (the rules, `token-form-rules.ts`, load after
 * the page: ADR 0034). Field names are the app's; `remote-token-payload.ts` is the one place that
 * renames them to the service's.
 */

// The ID types, their fields and their words are described once, in lib/domain/id-types.ts.
import { idFieldsOf, idTypeDescriptor, type IdFieldsOf, type IdType } from "@/lib/domain/id-types";

export const idTypeMessage = "Choose the type of the customer's ID.";

// ─── Consent (ADR 0023) ──────────────────────────────────────────────────────────────────────────

export const consentMessages = {
  required: "Confirm that you told the customer what is checked and that they agreed. Without their consent no token is issued.",
  wordingChanged: "The consent wording changed while this form was open. Read the new wording to the customer, then confirm again.",
} as const;

/**
 * Both forms carry the teller's attestation that the customer was told what is checked and agreed,
 * and which version of the wording they read out (the server checks it is the one in force).
 */
type ConsentFields = { consentAttested: boolean; consentWordingVersion: number };

const emptyConsent: ConsentFields = { consentAttested: false, consentWordingVersion: 0 };

// ─── Fingerprint ─────────────────────────────────────────────────────────────────────────────────

/**
 * The branch is not a form field: the server sends the signed-in teller's own branch. The purpose
 * is required although the service makes it optional for fingerprint tokens: the bank's purpose
 * policy (lib/compliance) decides whether a token may be issued at all.
 */
export type FingerprintTokenFormInput = { ghanaCardNumber: string; referenceId: string; purpose: string } & ConsentFields;
/** The same fields once checked: each normalised (the Ghana Card as `GHA-XXXXXXXXX-X`, …). */
export type FingerprintTokenForm = FingerprintTokenFormInput;

export const emptyFingerprintTokenForm: FingerprintTokenFormInput = { ghanaCardNumber: "", referenceId: "", purpose: "", ...emptyConsent };

// ─── Remote ──────────────────────────────────────────────────────────────────────────────────────

export const remoteOptionNames = ["sendSms", "skipInstructions", "captureLocation", "captureHomeAddress", "livenessOnly"] as const;
export type RemoteOptionName = (typeof remoteOptionNames)[number];

export const deliveryMessage = "Choose how the link reaches the customer: by SMS, by e-mail, or both.";

type RemoteCommonFields = { phoneNumber: string; referenceId: string; purpose: string; email?: string } & Record<RemoteOptionName, boolean> & ConsentFields;

/** One shape per ID type: the type decides which ID fields exist (its descriptor's). */
export type RemoteTokenFormInput = { [Type in IdType]: { idType: Type } & IdFieldsOf<Type> & RemoteCommonFields }[IdType];
/** The same once checked: normalised, an empty e-mail as `undefined`. */
export type RemoteTokenForm = RemoteTokenFormInput;

export const defaultRemoteOptions: Record<RemoteOptionName, boolean> = {
  sendSms: true,
  skipInstructions: false,
  captureLocation: false,
  captureHomeAddress: false,
  livenessOnly: false,
};

/** The empty form of one ID type: its own ID fields, empty, and the common ones. */
export function emptyRemoteTokenForm(idType: IdType = "GHANA_CARD"): RemoteTokenFormInput {
  const common = { phoneNumber: "", referenceId: "", purpose: "", email: "", ...defaultRemoteOptions, ...emptyConsent };
  const idFields = Object.fromEntries(idFieldsOf(idType).map((field) => [field, ""]));
  return { idType, ...idFields, ...common } as RemoteTokenFormInput;
}

/** The ID number of either form, normalised: what is encrypted, indexed and masked. */
export function idNumberOf(values: RemoteTokenForm | (FingerprintTokenForm & { idType?: undefined })): string {
  if (!("idType" in values) || values.idType === undefined) return values.ghanaCardNumber;
  return (values as unknown as Record<string, string>)[idTypeDescriptor(values.idType).number.field] ?? "";
}
