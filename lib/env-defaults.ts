/**
 * The public defaults of two secrets, for local runs and tests only (production refuses both,
 * lib/env.ts). Apart from lib/env.ts so the end-to-end privacy scan can look for them without
 * importing server-only code.
 */
export const LOCAL_AUTH_SECRET = "veridesk-local-only-secret-do-not-use-in-production";
export const SANDBOX_API_KEY = "sandbox-key";
