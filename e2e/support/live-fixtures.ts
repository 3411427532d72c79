/**
 * Records the live specs need before the app starts (a token issued 16 minutes ago cannot be made
 * any other way without a test-only clock in the app). `live-seed.ts` writes them into the e2e
 * database when APP_ENV=test; the specs find them by these fixed ids.
 */
export const liveFixtures = {
  /** A remote Ghana Card token of teller.kumasi, issued 16 minutes before the app started. */
  expiredRemote: {
    id: "e2e00000-0016-4000-8000-000000000001",
    tokenPrefix: "EXPD",
    ghanaCardNumber: "GHA-716000016-4",
    phoneNumber: "0241600016",
    referenceId: "0241600016",
    purpose: "Account opening",
    owner: "teller.kumasi",
  },
  /** A fingerprint call of teller.kumasi that never got an answer (outcome unknown), 5 minutes ago. */
  unknownFingerprint: {
    id: "e2e00000-0016-4000-8000-000000000002",
    ghanaCardNumber: "GHA-716000017-2",
    referenceId: "0241600017",
    owner: "teller.kumasi",
  },
  /**
   * Retention (ADR 0022): a successful fingerprint token of teller.kumasi that ended seven years before the
   * app started. live-seed.ts writes it with all its personal data and then runs the retention
   * job (the same code the app schedules), which erases it: the specs see what the job left.
   */
  erasedOld: {
    id: "e2e00000-0014-4000-8000-000000000014",
    token: "OLD14A",
    ghanaCardNumber: "GHA-714000014-7",
    referenceId: "0241400014",
    purpose: "KYC refresh",
    owner: "teller.kumasi",
    yearsAgo: 7,
  },
  /** The same age, under a legal hold: the job leaves it whole. */
  heldOld: {
    id: "e2e00000-0014-4000-8000-000000000015",
    token: "OLD14H",
    ghanaCardNumber: "GHA-714000015-4",
    referenceId: "0241400015",
    purpose: "KYC refresh",
    owner: "teller.kumasi",
    yearsAgo: 7,
  },
} as const;
