import "server-only";
import { computePhoneNumberIndex, computeReferenceIndex, phoneCallingCodeOf } from "./blind-index";
import { piiContext } from "./columns";
import { encryptField } from "./field-encryption";
import type { PiiKeys } from "./keys";
import { maskPhoneNumber, maskFreeText } from "./mask";

/** The stored form of a token's reference and phone numbers: ciphertext, blind index, masked copy. */
export type EncryptedContactFields = {
  referenceMasked?: string;
  referenceEncrypted?: string;
  referenceIndex?: string;
  phoneNumberMasked?: string | null;
  phoneNumberEncrypted?: string | null;
  phoneNumberIndex?: string | null;
  phoneCallingCode?: string | null;
  smsSentToMasked?: string | null;
  smsSentToEncrypted?: string | null;
};

/**
 * Encrypts whichever of the reference, the customer's phone and the SMS number are given, for row
 * `rowId` (ADR 0023). Only the masked copies are ever stored in clear.
 */
export function encryptContactFields(
  rowId: string,
  values: { reference?: string; phoneNumber?: string | null; smsSentTo?: string | null },
  keys: PiiKeys,
): EncryptedContactFields {
  const fields: EncryptedContactFields = {};
  if (values.reference !== undefined) {
    fields.referenceMasked = maskFreeText(values.reference);
    fields.referenceEncrypted = encryptField(values.reference, piiContext("reference", rowId), keys);
    fields.referenceIndex = computeReferenceIndex(values.reference, keys);
  }
  if (values.phoneNumber !== undefined) {
    fields.phoneNumberMasked = values.phoneNumber === null ? null : maskPhoneNumber(values.phoneNumber);
    fields.phoneNumberEncrypted = values.phoneNumber === null ? null : encryptField(values.phoneNumber, piiContext("phone_number", rowId), keys);
    fields.phoneNumberIndex = values.phoneNumber === null ? null : computePhoneNumberIndex(values.phoneNumber, keys);
    fields.phoneCallingCode = values.phoneNumber === null ? null : phoneCallingCodeOf(values.phoneNumber);
  }
  if (values.smsSentTo !== undefined) {
    fields.smsSentToMasked = values.smsSentTo === null ? null : maskPhoneNumber(values.smsSentTo);
    fields.smsSentToEncrypted = values.smsSentTo === null ? null : encryptField(values.smsSentTo, piiContext("sms_sent_to", rowId), keys);
  }
  return fields;
}
