import { parsePhoneNumberFromString, type MetadataJson } from "libphonenumber-js/core";
import ghanaMobileMetadata from "./ghana-mobile-metadata.json";
import { cleanPastedText, foreignDigitsMessage, hasForeignDigits } from "./pasted-text";
import type { Normalised } from "./normalised";
import { phoneExample } from "./phone-example";

/**
 * Ghana mobile numbers, as the provider wants them: the 10-digit local form (`0241234567`).
 * libphonenumber-js with its mobile-only metadata decides what a valid mobile number is, so new
 * network prefixes arrive with a library update rather than a hand-kept regex. Only Ghana's part
 * of that metadata is loaded (`scripts/phone-metadata.ts` cuts it; every other country's would
 * add 24 kB to each form page): a number in another country's format is refused by its calling
 * code.
 */
const metadata = ghanaMobileMetadata as unknown as MetadataJson;

/** `+44…` or `0044…`: a number dialled from abroad to a country other than Ghana. */
const otherCountryCallingCode = /^(?:\+|00)(?!233)\d/;

export const phoneMessages = {
  required: "Enter the customer's mobile number.",
  invalid: `Enter a Ghana mobile number, e.g. ${phoneExample} or +233 24 123 4567. The link is sent to it by SMS.`,
  foreign: "Enter a Ghana mobile number (+233). The service sends its SMS to Ghana numbers only.",
  extension: "Enter the mobile number without an extension.",
  foreignDigits: foreignDigitsMessage,
} as const;

/** `+233 24 123 4567`, `233241234567`, `024 123 4567` → `0241234567`, or the message to show. */
export function normaliseGhanaMobile(raw: string): Normalised {
  const cleaned = cleanPastedText(raw);
  if (cleaned === "") return { ok: false, message: phoneMessages.required };
  if (hasForeignDigits(cleaned)) return { ok: false, message: phoneMessages.foreignDigits };
  if (otherCountryCallingCode.test(cleaned.replace(/[\s().-]/g, ""))) return { ok: false, message: phoneMessages.foreign };
  const parsed = parsePhoneNumberFromString(cleaned, { defaultCountry: "GH" }, metadata);
  if (!parsed) return { ok: false, message: phoneMessages.invalid };
  if (parsed.country !== undefined && parsed.country !== "GH") return { ok: false, message: phoneMessages.foreign };
  if (parsed.ext) return { ok: false, message: phoneMessages.extension };
  if (parsed.countryCallingCode !== "233" || !parsed.isValid()) return { ok: false, message: phoneMessages.invalid };
  return { ok: true, value: `0${parsed.nationalNumber}` };
}
