import { z } from "zod";
import { ID_TYPES, type IdType } from "./store";

/** Field name → every message about it; the 422 body names all bad fields at once. */
export type FieldErrors = Record<string, string[]>;

export type Validated<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors };

const GHANA_CARD_PATTERN = /^GHA-\d{9}-\d$/;
const GHANA_CARD_MESSAGE = "must match GHA-XXXXXXXXX-X (9 digits, a hyphen, 1 digit)";
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

// ── fingerprint (JSON) ─────────────────────────────────────────────────────

const requiredText = (field: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? `${field} is required` : `${field} must be a string`) })
    .refine((value) => value.trim() !== "", `${field} is required`);

const optionalText = (field: string) => z.string({ error: `${field} must be a string` }).optional();

export const fingerprintRequestSchema = z.object({
  id_number: requiredText("id_number").refine((value) => GHANA_CARD_PATTERN.test(value), {
    message: `id_number ${GHANA_CARD_MESSAGE}`,
    when: (payload) => typeof payload.value === "string" && payload.value.trim() !== "",
  }),
  referenceid: requiredText("referenceid"),
  purpose: optionalText("purpose"),
  branch_name: optionalText("branch_name"),
});

export type FingerprintRequest = z.output<typeof fingerprintRequestSchema>;

export function validateFingerprintRequest(body: unknown): Validated<FingerprintRequest> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return { ok: false, errors: { body: ["body must be a JSON object"] } };
  }
  const parsed = fingerprintRequestSchema.safeParse(body);
  if (parsed.success) return { ok: true, value: parsed.data };
  const fieldErrors: FieldErrors = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0] ?? "body");
    (fieldErrors[field] ??= []).push(issue.message);
  }
  return { ok: false, errors: fieldErrors };
}

// ── remote verification (multipart) ────────────────────────────────────────

/**
 * Checked by hand rather than with a zod union: the rules depend on id_type, and the sandbox must
 * still report every other bad field when id_type itself is wrong, which a discriminated union
 * cannot do.
 */
export const ID_TYPE_FIELDS: Record<IdType, readonly string[]> = {
  GHANA_CARD: ["ghanacardnumber"],
  VOTER: ["voterid"],
  PASSPORT: ["passportnumber"],
  DRIVER_LICENCE: ["driverid", "dob"],
};

const REQUIRED_COMMON_FIELDS = ["id_type", "verificationtype", "phonenumber", "referenceid", "purpose"] as const;
const OPTIONAL_FLAG_FIELDS = ["send_token_to_client", "with_instructions", "require_location", "require_address_location"] as const;

export interface RemoteRequest {
  idType: IdType;
  phoneNumber: string;
  email?: string;
  shouldSendSms: boolean;
  /** Every text field as received, kept on the token record for tests and the link page. */
  fields: Record<string, string>;
}

/** `fields` is what the body parser received: a string per name, an array when repeated, an object for a file. */
export function validateRemoteRequest(fields: Record<string, unknown>): Validated<RemoteRequest> {
  const errors: FieldErrors = {};
  const addError = (field: string, message: string) => (errors[field] ??= []).push(message);
  const text: Record<string, string> = {};

  for (const [field, value] of Object.entries(fields)) {
    if (typeof value === "string") text[field] = value;
    else if (Array.isArray(value)) addError(field, `${field} was sent more than once`);
    else addError(field, `${field} must be a text field, not a file`);
  }
  const isPresent = (field: string) => text[field] !== undefined && text[field].trim() !== "";
  const requireField = (field: string) => {
    if (!isPresent(field) && !errors[field]) addError(field, `${field} is required`);
    return isPresent(field);
  };

  for (const field of REQUIRED_COMMON_FIELDS) requireField(field);

  const idType = ID_TYPES.find((candidate) => candidate === text.id_type);
  if (isPresent("id_type") && !idType) addError("id_type", `id_type must be one of ${ID_TYPES.join(", ")}`);
  if (isPresent("verificationtype") && text.verificationtype !== "3") {
    addError("verificationtype", "verificationtype must be 3");
  }

  if (idType) {
    for (const field of ID_TYPE_FIELDS[idType]) requireField(field);
    if (idType === "GHANA_CARD" && isPresent("ghanacardnumber") && !GHANA_CARD_PATTERN.test(text.ghanacardnumber ?? "")) {
      addError("ghanacardnumber", `ghanacardnumber ${GHANA_CARD_MESSAGE}`);
    }
    if (idType === "DRIVER_LICENCE" && isPresent("dob") && !isCalendarDate(text.dob ?? "")) {
      addError("dob", "dob must be a real date in the format YYYY-MM-DD");
    }
    for (const [otherType, otherFields] of Object.entries(ID_TYPE_FIELDS)) {
      if (otherType === idType) continue;
      for (const field of otherFields) {
        if (field in fields && !ID_TYPE_FIELDS[idType].includes(field)) {
          addError(field, `${field} is unexpected when id_type is ${idType}`);
        }
      }
    }
  }

  for (const field of OPTIONAL_FLAG_FIELDS) {
    if (text[field] !== undefined && text[field] !== "0" && text[field] !== "1") {
      addError(field, `${field} must be 0 or 1`);
    }
  }
  if (text.verification_mode_id !== undefined && text.verification_mode_id !== "7") {
    addError("verification_mode_id", "verification_mode_id must be 7 when present (omit it for full KYC)");
  }
  if (text.email !== undefined && !EMAIL_PATTERN.test(text.email)) {
    addError("email", "email must be an e-mail address");
  }

  if (Object.keys(errors).length > 0 || !idType || text.phonenumber === undefined) return { ok: false, errors };
  return {
    ok: true,
    value: {
      idType,
      phoneNumber: text.phonenumber,
      email: text.email,
      shouldSendSms: text.send_token_to_client === "1",
      fields: text,
    },
  };
}

/** YYYY-MM-DD that names a day that exists (rejects 2023-02-30, which Date would roll over). */
export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
