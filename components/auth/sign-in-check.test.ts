import { describe, expect, it } from "vitest";
import { checkSignIn, signInFieldMessages } from "./sign-in-check";

describe("checkSignIn", () => {
  it("trims the username and keeps the password exactly as typed", () => {
    expect(checkSignIn({ username: "  teller.accra ", password: " pass phrase " })).toEqual({
      ok: true,
      values: { username: "teller.accra", password: " pass phrase " },
    });
  });

  it("names each empty field, a username of spaces included", () => {
    expect(checkSignIn({ username: "   ", password: "" })).toEqual({
      ok: false,
      fieldErrors: { username: signInFieldMessages.username, password: signInFieldMessages.password },
    });
    expect(checkSignIn(undefined)).toEqual({ ok: false, fieldErrors: { username: signInFieldMessages.username, password: signInFieldMessages.password } });
  });
});
