import "server-only";

export { canonicalIdNumber, canonicalJson, canonicalPhoneNumber, canonicalReference, computeIdNumberIndex, computePhoneNumberIndex, computeReferenceIndex, computeRequestFingerprint, phoneCallingCodeOf } from "./blind-index";
export { contactPiiColumns, erasedFingerprint, identityPiiColumns, piiContext } from "./columns";
export { encryptContactFields, type EncryptedContactFields } from "./contact-fields";
export { decryptField, encryptField } from "./field-encryption";
export { getPiiKeys, keyIdOf, resolvePiiKeys, type PiiKeys } from "./keys";
export { lastFourOf, maskEmail, maskIdNumber, maskPhoneNumber, maskFreeText } from "./mask";
