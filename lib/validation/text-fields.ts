import type { Normalised } from "./normalised";
import { cleanPastedText, foreignDigitsMessage, hasControlCharacters, hasForeignDigits } from "./pasted-text";
import { normaliseGhanaMobile } from "./phone";

/** Free-text fields sent to the service: reference, purpose, e-mail. */

export const referenceMaxLength = 64;
export const purposeMaxLength = 120;
export const emailMaxLength = 254;

export const textMessages = {
  referenceRequired: "Enter a reference. The customer's phone number is the usual choice.",
  referenceTooLong: `Keep the reference to ${referenceMaxLength} characters or fewer.`,
  purposeRequired: "Choose the purpose of the verification.",
  purposeTooLong: `Keep the purpose to ${purposeMaxLength} characters or fewer.`,
  emailInvalid: "Enter an e-mail address like name@example.com, or leave it empty.",
  emailTooLong: `An e-mail address has at most ${emailMaxLength} characters.`,
  unprintable: "Remove the invisible or control characters (often from pasting).",
  foreignDigits: foreignDigitsMessage,
} as const;

function checkFreeText(raw: string, maxLength: number, messages: { required: string; tooLong: string }): Normalised {
  if (hasControlCharacters(raw.replace(/[\t\r\n]/g, " "))) return { ok: false, message: textMessages.unprintable };
  const cleaned = cleanPastedText(raw);
  if (cleaned === "") return { ok: false, message: messages.required };
  if (hasForeignDigits(cleaned)) return { ok: false, message: textMessages.foreignDigits };
  if (cleaned.length > maxLength) return { ok: false, message: messages.tooLong };
  return { ok: true, value: cleaned };
}

/**
 * The reference is free text, but its suggested content is the customer's phone: a value that
 * reads as a Ghana mobile number is stored in the provider's 10-digit form, so the same customer
 * is always tracked under the same reference however it was typed.
 */
export function normaliseReference(raw: string): Normalised {
  const checked = checkFreeText(raw, referenceMaxLength, {
    required: textMessages.referenceRequired,
    tooLong: textMessages.referenceTooLong,
  });
  if (!checked.ok) return checked;
  const asPhone = /^[+\d\s()-]+$/.test(checked.value) ? normaliseGhanaMobile(checked.value) : undefined;
  return asPhone?.ok ? asPhone : checked;
}

export function normalisePurpose(raw: string): Normalised {
  return checkFreeText(raw, purposeMaxLength, { required: textMessages.purposeRequired, tooLong: textMessages.purposeTooLong });
}

/**
 * zod's own e-mail pattern (`z.email()`), kept here so the browser checks an address without
 * loading zod; text-fields.test.ts holds it equal to zod's.
 */
export const emailPattern = /^(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$/;

/** Optional e-mail: empty means "not given"; otherwise a plausible address, trimmed. */
export function normaliseOptionalEmail(raw: string | undefined): Normalised<string | undefined> {
  if (raw === undefined) return { ok: true, value: undefined };
  if (hasControlCharacters(raw)) return { ok: false, message: textMessages.unprintable };
  const cleaned = cleanPastedText(raw);
  if (cleaned === "") return { ok: true, value: undefined };
  if (cleaned.length > emailMaxLength) return { ok: false, message: textMessages.emailTooLong };
  if (hasForeignDigits(cleaned)) return { ok: false, message: textMessages.foreignDigits };
  if (!emailPattern.test(cleaned)) return { ok: false, message: textMessages.emailInvalid };
  return { ok: true, value: cleaned };
}
