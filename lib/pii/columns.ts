/**
 * Every column of customer personal data, in one place (ADR 0022). The retention job
 * erases them by clock, erasure on request by customer, and the PII-key rotation (rotation.ts)
 * re-encrypts the `encrypted` ones and recomputes the `blindIndex` ones: all three read this list,
 * so a new column of personal data added here is covered by all three, and one left out by none.
 *
 * No server import: the list is plain data (tests and the docs read it too).
 */

/** Contact data: erased RETENTION_CONTACT_DAYS after the token ends. */
export const contactPiiColumns = {
  /** AES-256-GCM ciphertexts, AAD `token_requests.<aad>:<row id>`. */
  encrypted: [
    { column: "phone_number_encrypted", aad: "phone_number" },
    { column: "sms_sent_to_encrypted", aad: "sms_sent_to" },
    { column: "email_encrypted", aad: "email" },
    { column: "reference_encrypted", aad: "reference" },
  ],
  /** HMAC blind indexes (index key), with the domain they were computed in. */
  blindIndex: [
    { column: "reference_index", domain: "reference", source: "reference_encrypted" },
    { column: "phone_number_index", domain: "phone", source: "phone_number_encrypted" },
  ],
  /** Masked display copies and what is derived from the phone (its calling code): erased with the rest. */
  masked: ["phone_number", "sms_sent_to", "reference_id", "phone_calling_code"],
} as const;

/** Identity data: erased RETENTION_IDENTITY_YEARS (at least the AML minimum) after the token ends. */
export const identityPiiColumns = {
  encrypted: [
    { column: "id_number_encrypted", aad: "id_number" },
    { column: "date_of_birth_encrypted", aad: "date_of_birth" },
  ],
  blindIndex: [{ column: "id_number_index", domain: "id-number", source: "id_number_encrypted" }],
  /** The last four characters of the ID number (masked display) and the request fingerprint, a keyed digest of the whole request. */
  masked: ["id_number_last4", "request_fingerprint"],
} as const;

export const piiTable = "token_requests" as const;

/** Every encrypted column, for the key rotation. */
export const allEncryptedPiiColumns = [...contactPiiColumns.encrypted, ...identityPiiColumns.encrypted];
/** Every blind index column, for the key rotation. */
export const allBlindIndexPiiColumns = [...contactPiiColumns.blindIndex, ...identityPiiColumns.blindIndex];

/** The AAD bound into a ciphertext of this table (ADR 0006). */
export function piiContext(aad: string, rowId: string): string {
  return `${piiTable}.${aad}:${rowId}`;
}

/** What stays in request_fingerprint once identity data is erased (the column is NOT NULL). */
export const erasedFingerprint = "erased";
