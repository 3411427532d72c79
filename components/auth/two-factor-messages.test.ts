import { describe, expect, it } from "vitest";
import { checkCode, codeStepMessages, codeStepOutcome } from "./two-factor-messages";

describe("the code step's messages", () => {
  it("checks a code before sending it: 6 digits, spaces allowed; a backup code as typed", () => {
    expect(checkCode(" 123 456 ", "totp")).toEqual({ ok: true, value: "123456" });
    expect(checkCode("", "totp")).toEqual({ ok: false, message: codeStepMessages.codeMissing });
    expect(checkCode("12345", "totp")).toEqual({ ok: false, message: codeStepMessages.codeShape });
    expect(checkCode(" abcde-12345 ", "backup_code")).toEqual({ ok: true, value: "abcde-12345" });
    expect(checkCode(" ", "backup_code")).toEqual({ ok: false, message: codeStepMessages.backupCodeMissing });
  });

  it("tells a used code from a wrong one, and sends an expired sign-in back to the password", () => {
    expect(codeStepOutcome({ status: 401, code: "CODE_ALREADY_USED" }, "totp")).toEqual({ message: codeStepMessages.codeUsed, restart: false });
    expect(codeStepOutcome({ status: 401, code: "INVALID_CODE" }, "totp")).toEqual({ message: codeStepMessages.codeWrong, restart: false });
    expect(codeStepOutcome({ status: 401, code: "INVALID_BACKUP_CODE" }, "backup_code")?.restart).toBe(false);
    expect(codeStepOutcome({ status: 401, code: "INVALID_TWO_FACTOR_COOKIE" }, "totp")).toEqual({ message: codeStepMessages.expired, restart: true });
    expect(codeStepOutcome({ status: 400, code: "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE" }, "totp")?.restart).toBe(true);
    expect(codeStepOutcome({ status: 500 }, "totp")).toBeNull();
  });
});
