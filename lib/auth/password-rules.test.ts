import { describe, expect, it } from "vitest";
import { changePasswordSchema } from "@/lib/staff/change-password-schema";
import { PASSWORD_MAX, PASSWORD_MIN, passwordMessages } from "./password-rules";

const TEMPORARY = "k7m2-p9qx-4tnw";

function fieldErrorsOf(input: unknown): Record<string, string[]> {
  const parsed = changePasswordSchema.safeParse(input);
  if (parsed.success) return {};
  const errors: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) (errors[issue.path.join(".")] ??= []).push(issue.message);
  return errors;
}

describe("choosing a new password", () => {
  it("accepts a new password of the allowed length, typed twice, different from the temporary one", () => {
    const input = { currentPassword: TEMPORARY, newPassword: "a phrase of my own", confirmPassword: "a phrase of my own" };
    expect(changePasswordSchema.parse(input)).toEqual(input);
    const shortest = "x".repeat(PASSWORD_MIN);
    expect(fieldErrorsOf({ currentPassword: TEMPORARY, newPassword: shortest, confirmPassword: shortest })).toEqual({});
  });

  it("never trims: spaces are part of a password", () => {
    const spaced = "  spaced out  ";
    expect(changePasswordSchema.parse({ currentPassword: TEMPORARY, newPassword: spaced, confirmPassword: spaced }).newPassword).toBe(spaced);
  });

  it("refuses a short or overlong new password with the same limits as sign-in", () => {
    const short = "x".repeat(PASSWORD_MIN - 1);
    expect(fieldErrorsOf({ currentPassword: TEMPORARY, newPassword: short, confirmPassword: short })).toEqual({ newPassword: [passwordMessages.tooShort] });
    const long = "x".repeat(PASSWORD_MAX + 1);
    expect(fieldErrorsOf({ currentPassword: TEMPORARY, newPassword: long, confirmPassword: long })).toEqual({ newPassword: [passwordMessages.tooLong] });
  });

  it("refuses keeping the temporary password", () => {
    expect(fieldErrorsOf({ currentPassword: TEMPORARY, newPassword: TEMPORARY, confirmPassword: TEMPORARY })).toEqual({
      newPassword: [passwordMessages.sameAsCurrent],
    });
  });

  it("refuses a confirmation that differs", () => {
    expect(fieldErrorsOf({ currentPassword: TEMPORARY, newPassword: "a phrase of my own", confirmPassword: "a phrase of my 0wn" })).toEqual({
      confirmPassword: [passwordMessages.confirmDiffers],
    });
  });

  it("reports every problem at once, the cross-field ones included", () => {
    expect(fieldErrorsOf({ currentPassword: "", newPassword: "short", confirmPassword: "other" })).toEqual({
      currentPassword: [passwordMessages.currentMissing],
      newPassword: [passwordMessages.tooShort],
      confirmPassword: [passwordMessages.confirmDiffers],
    });
    expect(fieldErrorsOf({})).toEqual({
      currentPassword: [passwordMessages.currentMissing],
      newPassword: [passwordMessages.tooShort],
      confirmPassword: [passwordMessages.confirmMissing],
    });
  });
});
