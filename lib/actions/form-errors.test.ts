import { describe, expect, it } from "vitest";
import { applyActionErrors, toFormFailure } from "./form-errors";
import type { ActionFailure } from "./result";

type Values = { first: string; second: string };

function fakeForm() {
  const errors: Record<string, string | undefined> = {};
  const focused: string[] = [];
  return {
    errors,
    focused,
    form: {
      setError: (name: string, error: { message?: string }) => void (errors[name] = error.message),
      setFocus: (name: string) => void focused.push(name),
    },
  };
}

const failure = (fieldErrors: Record<string, string[]>, formError?: string): ActionFailure => ({ ok: false, code: "VALIDATION", fieldErrors, formError, requestId: "ABCD2345" });

describe("the one field-error mapper", () => {
  it("puts every message of a field under it and focuses the first field with an error in page order", () => {
    const { errors, focused, form } = fakeForm();
    const message = applyActionErrors<Values>(failure({ second: ["Too short.", "Not a word."], first: ["Missing."] }), form, ["first", "second"]);
    expect(errors).toEqual({ second: "Too short. Not a word.", first: "Missing." });
    expect(focused).toEqual(["first"]);
    expect(message).toBeUndefined();
  });

  it("keeps what no field shows in the form's message", () => {
    const { errors, focused, form } = fakeForm();
    const message = applyActionErrors<Values>(failure({ elsewhere: ["Gone."] }, "Some fields need attention."), form, ["first", "second"]);
    expect(errors).toEqual({});
    expect(focused).toEqual([]);
    expect(message).toBe("Some fields need attention. Gone.");
  });

  it("gives the alert the fallback message, the support code and whether a field took the focus", () => {
    const { form } = fakeForm();
    expect(toFormFailure<Values>(failure({}), form, ["first"], "Not saved.")).toEqual({ message: "Not saved.", supportCode: "ABCD2345", hasFieldErrors: false });
    expect(toFormFailure<Values>(failure({ first: ["Missing."] }, "Check the fields."), form, ["first"], "Not saved.")).toEqual({ message: "Check the fields.", supportCode: "ABCD2345", hasFieldErrors: true });
  });
});
