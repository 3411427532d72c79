import { ID_TYPE_DESCRIPTORS, isIdType, needsDateOfBirth, type IdNumberCheck, type IdType } from "@/lib/domain/id-types";
import { checkDocumentNumber, checkDateOfBirth } from "./identity-documents";
import { normaliseGhanaCardNumber } from "./ghana-card";
import { asRecord, checkFields, formCheckOf, type FieldRule, type FormCheck } from "./form-check";
import type { Normalised } from "./normalised";
import { normaliseGhanaMobile } from "./phone";
import { normaliseOptionalEmail, normalisePurpose, normaliseReference, textMessages } from "./text-fields";
import {
  consentMessages,
  deliveryMessage,
  idTypeMessage,
  type FingerprintTokenForm,
  type RemoteOptionName,
  type RemoteTokenForm,
} from "./token-form-shape";

/**
 * The rules of the two token forms, one per field, as plain functions: the browser checks a form
 * with them (`checkFingerprintTokenForm`, `checkRemoteTokenForm`, loaded after the page, ADR 0034)
 * and the server's zod schemas (`token-forms.ts`) are built from the very same rules, so a field
 * can never be checked one way in the browser and another on the server. The server parses again
 * all the same: the browser is not trusted.
 *
 * Every rule is idempotent (normalising a normalised value changes nothing), so what the browser
 * sends after its own check passes the server's parse unchanged.
 */

/** A text field: a missing value is the empty one, so it gets the same "Enter …" message. */
function textRule(normalise: (raw: string) => Normalised): FieldRule<string> {
  return (raw) => normalise(typeof raw === "string" ? raw : "");
}

const optionMessage = "Turn this option on or off.";

const optionRule: FieldRule<boolean> = (raw) => (typeof raw === "boolean" ? { ok: true, value: raw } : { ok: false, message: optionMessage });

const emailRule: FieldRule<string | undefined> = (raw) =>
  raw === undefined || typeof raw === "string" ? normaliseOptionalEmail(raw) : { ok: false, message: textMessages.emailInvalid };

const consentRules = {
  consentAttested: ((raw) => (raw === true ? { ok: true, value: true } : { ok: false, message: consentMessages.required })) as FieldRule<boolean>,
  consentWordingVersion: ((raw) =>
    typeof raw === "number" && Number.isInteger(raw) && raw >= 1 ? { ok: true, value: raw } : { ok: false, message: consentMessages.wordingChanged }) as FieldRule<number>,
};

// ─── Fingerprint ─────────────────────────────────────────────────────────────────────────────────

export const fingerprintTokenFieldRules = {
  ghanaCardNumber: textRule(normaliseGhanaCardNumber),
  referenceId: textRule(normaliseReference),
  purpose: textRule(normalisePurpose),
  ...consentRules,
};

// ─── Remote ──────────────────────────────────────────────────────────────────────────────────────

const remoteOptionRules: Record<RemoteOptionName, FieldRule<boolean>> = {
  sendSms: optionRule,
  skipInstructions: optionRule,
  captureLocation: optionRule,
  captureHomeAddress: optionRule,
  livenessOnly: optionRule,
};

export const remoteCommonFieldRules = {
  phoneNumber: textRule(normaliseGhanaMobile),
  referenceId: textRule(normaliseReference),
  purpose: textRule(normalisePurpose),
  email: emailRule,
  ...remoteOptionRules,
  ...consentRules,
};

/** A number's rule, from its descriptor's check (lib/domain/id-types.ts). */
function numberRule(check: IdNumberCheck): FieldRule<string> {
  return check.kind === "ghana-card" ? textRule(normaliseGhanaCardNumber) : textRule((raw) => checkDocumentNumber(check, raw));
}

/** The ID fields each type adds to the common ones: its number, and its date of birth if it needs one. */
export const remoteIdFieldRules = Object.fromEntries(
  ID_TYPE_DESCRIPTORS.map((descriptor) => [
    descriptor.type,
    {
      [descriptor.number.field]: numberRule(descriptor.number.check),
      ...(needsDateOfBirth(descriptor.type) ? { dateOfBirth: textRule((raw) => checkDateOfBirth(raw)) } : {}),
    },
  ]),
) as Record<IdType, Record<string, FieldRule<string>>>;

/**
 * A remote token nobody can open is useless: the link has to go somewhere. Checked only once both
 * fields are themselves valid (the caller's part), so the message is never stacked on a field error.
 */
export function deliveryProblem(values: { sendSms: boolean; email?: string }): string | null {
  return values.sendSms || values.email !== undefined ? null : deliveryMessage;
}

// ─── Whole forms ─────────────────────────────────────────────────────────────────────────────────

/**
 * The rules minus the fields a new token carries over from an earlier one ("New token for this
 * customer", ADR 0038): the server fills those in and checks them, the browser never has them.
 */
function withoutCarried<Rules extends Record<string, FieldRule<unknown>>>(rules: Rules, carried: readonly string[]): Rules {
  return carried.length === 0 ? rules : (Object.fromEntries(Object.entries(rules).filter(([name]) => !carried.includes(name))) as Rules);
}

/** `carried`: fields filled in by the server from an earlier token, taken as filled; left out of the values. */
export function checkFingerprintTokenForm(input: unknown, carried: readonly string[] = []): FormCheck<FingerprintTokenForm> {
  const { values, fieldErrors } = checkFields(withoutCarried(fingerprintTokenFieldRules, carried), input);
  return formCheckOf(values, fieldErrors);
}

/** `carried`: as for checkFingerprintTokenForm; a carried e-mail counts as somewhere to send the link. */
export function checkRemoteTokenForm(input: unknown, carried: readonly string[] = []): FormCheck<RemoteTokenForm> {
  const record = asRecord(input);
  if (!isIdType(record.idType)) return { ok: false, fieldErrors: { idType: idTypeMessage } };
  const { values, fieldErrors } = checkFields(withoutCarried({ ...remoteIdFieldRules[record.idType], ...remoteCommonFieldRules }, carried), record);
  if (!("sendSms" in fieldErrors) && !("email" in fieldErrors)) {
    const email = carried.includes("email") ? "(carried)" : (values.email as string | undefined);
    const problem = deliveryProblem({ sendSms: values.sendSms as boolean, email });
    if (problem) fieldErrors.sendSms = problem;
  }
  return formCheckOf({ idType: record.idType, ...values }, fieldErrors);
}
