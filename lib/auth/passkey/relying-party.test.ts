import { describe, expect, it } from "vitest";
import { relyingPartyOf } from "./relying-party";

describe("relyingPartyOf", () => {
  it("binds passkeys to APP_URL's host name, and accepts only its origin in production", () => {
    expect(relyingPartyOf({ appUrl: "https://veridesk.bank.example", port: 3000, isProduction: true })).toEqual({
      rpId: "veridesk.bank.example",
      origins: ["https://veridesk.bank.example"],
    });
  });

  it("uses localhost for a local run reached at 127.0.0.1 (WebAuthn refuses an IP), and accepts both forms", () => {
    const party = relyingPartyOf({ appUrl: "http://127.0.0.1:3500", port: 3500, isProduction: false });
    expect(party.rpId).toBe("localhost");
    expect(party.origins).toEqual(expect.arrayContaining(["http://127.0.0.1:3500", "http://localhost:3500"]));
  });

  it("turns passkeys off for an IP address in production", () => {
    expect(relyingPartyOf({ appUrl: "http://10.0.0.5:3000", port: 3000, isProduction: true }).rpId).toBeNull();
    expect(relyingPartyOf({ appUrl: "http://[::1]:3000", port: 3000, isProduction: true }).rpId).toBeNull();
  });
});
