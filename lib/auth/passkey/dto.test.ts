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
    expect(browserPasskeyErrorMessage(new DOMException("x", "NotAllowedError"))).toBe(passkeyMessages.cancelled);
    expect(browserPasskeyErrorMessage(new DOMException("x", "InvalidStateError"))).toBe(passkeyMessages.alreadyOnDevice);
    expect(browserPasskeyErrorMessage(new DOMException("x", "NotSupportedError"))).toBe(passkeyMessages.noWebAuthn);
    expect(browserPasskeyErrorMessage(new DOMException("x", "SecurityError"))).toBe(passkeyMessages.wrongAddress);
  });
});
