import { describe, expect, it } from "vitest";
import { signInErrorMessage, signInMessages } from "./sign-in-messages";

describe("sign-in error messages", () => {
  it("says the same for an unknown username and a wrong password", () => {
    expect(signInErrorMessage({ status: 401, code: "INVALID_USERNAME_OR_PASSWORD" })).toBe(signInMessages.invalidCredentials);
    expect(signInErrorMessage({ status: 422, code: "USERNAME_TOO_SHORT" })).toBe(signInMessages.invalidCredentials);
  });

  it("passes the lock-out sentence through", () => {
    const message = "Too many failed attempts. This account is locked for 15 minutes — ask your supervisor if you need help now.";
    expect(signInErrorMessage({ status: 429, code: "ACCOUNT_LOCKED", message })).toBe(message);
  });

  it("passes the network pause through: not a minute, up to 15", () => {
    const message = "Too many failed sign-ins from this network. Sign-in from here is paused for up to 15 minutes — ask your supervisor if you need help now.";
    expect(signInErrorMessage({ status: 429, code: "ADDRESS_LIMITED", message })).toBe(message);
  });

  it("tells rate limiting and disabled accounts apart", () => {
    expect(signInErrorMessage({ status: 429 })).toBe(signInMessages.rateLimited);
    expect(signInErrorMessage({ status: 403, code: "ACCOUNT_DISABLED" })).toBe(signInMessages.disabled);
    expect(signInErrorMessage({ status: 500 })).toBe(signInMessages.unexpected);
  });
});

describe("sign-in messages for the factors and the bank sign-in", () => {
  it("sends a passkey account to its passkey, and says a break-glass-only form's refusal both ways", () => {
    expect(signInErrorMessage({ status: 403, code: "PASSKEY_REQUIRED" })).toBe(signInMessages.passkeyRequired);
    expect(signInErrorMessage({ status: 401, code: "INVALID_USERNAME_OR_PASSWORD" }, { isBreakGlassOnly: true })).toBe(signInMessages.invalidCredentialsBreakGlassOnly);
  });
});
