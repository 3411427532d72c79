import { describe, expect, it } from "vitest";
import { browserPasskeyErrorMessage, passkeyErrorMessage, passkeyMessages } from "./dto";

describe("passkey messages", () => {
  it("names a passkey that did not check its user", () => {
    expect(passkeyErrorMessage({ status: 401, code: "PASSKEY_USER_NOT_VERIFIED" })).toContain("Your passkey must check it is you (PIN or fingerprint)");
  });

  it("passes on only the server's words meant for people", () => {
    expect(passkeyErrorMessage({ status: 403, code: "ACCOUNT_DISABLED", message: "This account is disabled. Ask your administrator." })).toBe(
      "This account is disabled. Ask your administrator.",
    );
    expect(passkeyErrorMessage({ status: 400, code: "SOMETHING", message: "stack trace" })).toBe(passkeyMessages.invalid);
    expect(passkeyErrorMessage({ status: 500 })).toBe(passkeyMessages.unexpected);
  });

  it("tells a cancelled request from a browser that cannot do it", () => {
    // Cancelled, no passkey here, or not verified: the browser does not say which, the words name each.
    const notAllowed = browserPasskeyErrorMessage(new DOMException("x", "NotAllowedError"), "sign-in");
    expect(notAllowed).toContain("Your passkey must check it is you (PIN or fingerprint)");
    expect(notAllowed).toContain("cancelled");
    expect(notAllowed).toContain("No passkey for Veridesk on this device?");
    expect(browserPasskeyErrorMessage(new DOMException("x", "AbortError"), "sign-in")).toBe(passkeyMessages.cancelled);
    expect(browserPasskeyErrorMessage(new DOMException("x", "InvalidStateError"), "registration")).toBe(passkeyMessages.alreadyOnDevice);
    expect(browserPasskeyErrorMessage(new DOMException("x", "NotSupportedError"), "sign-in")).toBe(passkeyMessages.noWebAuthn);
    expect(browserPasskeyErrorMessage(new DOMException("x", "SecurityError"), "sign-in")).toBe(passkeyMessages.wrongAddress);
  });
});
