import "server-only";

export { canonicalIdNumber, canonicalJson, computeIdNumberIndex, computeRequestFingerprint } from "./blind-index";
export { decryptField, encryptField } from "./field-encryption";
export { getPiiKeys, keyIdOf, resolvePiiKeys, type PiiKeys } from "./keys";
export { lastFourOf, maskEmail, maskIdNumber, maskPhoneNumber } from "./mask";
