import "server-only";

export { findActiveTokensForCustomer } from "./active-tokens";
export type { ActiveTokenSummary, IssueTokenResult } from "./dto";
export {
  issueFingerprintToken,
  issueRemoteToken,
  issuerFromStaff,
  type FingerprintTokenSubmission,
  type IssueDependencies,
  type RemoteTokenSubmission,
  type TokenIssuer,
} from "./issue-token";
export { outcomeOfFailure, presentedCode, userMessageForFailure } from "./issue-outcome";
export { TOKEN_LIFETIME_MS, expiryOf } from "./lifetime";
export { getTokenRequestView, type TokenOutcomeView, type TokenRequestSummary, type TokenRequestView } from "./token-views";
export { attachSmsTokenActionDefinition, attachTokenFromSms, type SmsTokenAttacher } from "./attach-sms-token";
