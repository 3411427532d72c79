import { randomUUID } from "node:crypto";
import { fingerprintTokenActionSchema, remoteTokenActionSchema } from "@/lib/validation/token-forms";
import { remoteSubmissionOptions } from "./submission-options";

export { remoteSubmissionOptions } from "./submission-options";

/**
 * Valid token submissions for tests of the issuing use cases, as the forms send them: consent
 * attested under wording 1, a fresh idempotency key, and a Ghana Card number no other call of
 * this process used (so the same-customer warning never fires by accident). Override any field.
 */
let cardCounter = 100_000_000;
export function newGhanaCardNumber(): string {
  cardCounter += 1;
  return `GHA-${cardCounter}-1`;
}

export function remoteSubmission(overrides: Record<string, unknown> = {}) {
  return remoteTokenActionSchema.parse({
    idType: "GHANA_CARD",
    ghanaCardNumber: newGhanaCardNumber(),
    phoneNumber: "0241234567",
    referenceId: "0241234567",
    purpose: "KYC refresh",
    email: "",
    ...remoteSubmissionOptions,
    idempotencyKey: randomUUID(),
    ...overrides,
  });
}

export function fingerprintSubmission(overrides: Record<string, unknown> = {}) {
  return fingerprintTokenActionSchema.parse({
    ghanaCardNumber: newGhanaCardNumber(),
    referenceId: "0241234567",
    purpose: "Account opening",
    consentAttested: true,
    consentWordingVersion: 1,
    idempotencyKey: randomUUID(),
    ...overrides,
  });
}
