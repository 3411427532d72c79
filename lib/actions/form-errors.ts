import type { FieldValues, Path, UseFormSetError } from "react-hook-form";
import type { ActionFailure } from "./result";

/**
 * Puts a failed action's field errors on the react-hook-form fields they name (every message of a
 * field, joined) and returns the message for the whole form. Field paths the form does not
 * have go to the form message, so nothing the server said is lost.
 */
export function applyActionErrors<Values extends FieldValues>(
  failure: ActionFailure,
  setError: UseFormSetError<Values>,
  fieldNames: readonly Path<Values>[],
): string | undefined {
  const unplaced: string[] = [];
  let isFirst = true;
  for (const [field, messages] of Object.entries(failure.fieldErrors)) {
    if ((fieldNames as readonly string[]).includes(field)) {
      setError(field as Path<Values>, { type: "server", message: messages.join(" ") }, { shouldFocus: isFirst });
      isFirst = false;
    } else {
      unplaced.push(...messages);
    }
  }
  const formMessage = [failure.formError, ...unplaced].filter(Boolean).join(" ");
  return formMessage || undefined;
}

/** What a form shows above its buttons after a failed action: the message, the support code. */
export type FormFailure = {
  message: string;
  supportCode?: string;
  /** True when some field got its own message (and the focus): the alert then does not take it. */
  hasFieldErrors: boolean;
};

/**
 * applyActionErrors, plus what the form's alert needs: the request id to quote to support and
 * whether a field already took the focus. A new object each failure, so the alert takes the
 * focus again when the same failure repeats.
 */
export function toFormFailure<Values extends FieldValues>(
  failure: ActionFailure,
  setError: UseFormSetError<Values>,
  fieldNames: readonly Path<Values>[],
  fallbackMessage: string,
): FormFailure {
  const hasFieldErrors = Object.keys(failure.fieldErrors).some((field) => (fieldNames as readonly string[]).includes(field));
  const message = applyActionErrors(failure, setError, fieldNames) ?? fallbackMessage;
  return { message, supportCode: failure.requestId, hasFieldErrors };
}

/** The Alert props of a form failure: it takes the focus unless a field already did. */
export function formFailureAlertProps(failure: FormFailure): { attention?: FormFailure; supportCode?: string } {
  return { attention: failure.hasFieldErrors ? undefined : failure, supportCode: failure.supportCode };
}
