/**
 * What the API keys page shows as a key's status: the stored states (pending, active, rejected,
 * cancelled) with an active key told apart once revoked or past its expiry. Plain data, so the
 * client panel and the server's list share one union.
 */
export const API_KEY_LIST_STATUSES = ["pending", "active", "expired", "revoked", "rejected", "cancelled"] as const;
export type ApiKeyListStatus = (typeof API_KEY_LIST_STATUSES)[number];
