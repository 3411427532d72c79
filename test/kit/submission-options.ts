/**
 * The fields of a remote token submission that say nothing about the customer, as the form sends
 * them by default: SMS sent, instructions shown, nothing extra captured, consent attested under
 * wording 1. Shared by the unit, integration and browser tests; imports nothing, so a Playwright
 * spec can use it too.
 */
export const remoteSubmissionOptions = {
  sendSms: true,
  skipInstructions: false,
  captureLocation: false,
  captureHomeAddress: false,
  livenessOnly: false,
  consentAttested: true,
  consentWordingVersion: 1,
} as const;
