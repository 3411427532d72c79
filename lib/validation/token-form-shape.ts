/**
 * What the two token forms hold, without the rules that check it: the ID types and their fields,
 * the options, the empty forms, the types and the form-wide messages. Plain data only, so a form
 * page renders from it without loading any validator (the rules, `token-form-rules.ts`, load after
 * the page: ADR 0034). Field names are the app's; `remote-token-payload.ts` is the one place that
 * renames them to the service's.
 */

// The ID types and their words are the shared vocabulary (lib/domain), under the names the forms use.
import type { IdType } from "@/lib/domain/id-types";

export { ID_TYPES, idTypeLabels, type IdType } from "@/lib/domain/id-types";

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

type RemoteCommonFields = { phoneNumber: string; referenceId: string; purpose: string; email?: string } & Record<RemoteOptionName, boolean> & ConsentFields;

/** The ID fields of one type, keyed by that type. */
type RemoteIdFields = {
  GHANA_CARD: { ghanaCardNumber: string };
  VOTER: { voterId: string };
  PASSPORT: { passportNumber: string };
  DRIVER_LICENCE: { driverLicenceNumber: string; dateOfBirth: string };
};

/** One shape per ID type: the type decides which ID fields exist. */
export type RemoteTokenFormInput = { [Type in IdType]: { idType: Type } & RemoteIdFields[Type] & RemoteCommonFields }[IdType];
/** The same once checked: normalised, an empty e-mail as `undefined`. */
export type RemoteTokenForm = RemoteTokenFormInput;

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
