/**
 * The published authenticator secret (base32) of the demo administrators in TEST runs only: the
 * seed sets it up for them there (demo-authenticator.ts), so the browser suite can compute their
 * codes. In a local run they set up their own authenticator at first sign-in.
 */
export const DEMO_AUTHENTICATOR_SECRET = "VERIDESKDEMOAUTHENTICATORSECRET2";
