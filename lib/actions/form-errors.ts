import type { FieldValues, Path, UseFormSetError, UseFormSetFocus } from "react-hook-form";
import type { ActionFailure } from "./result";

/** What of a react-hook-form form the mapper needs (a `useForm()` result fits). */
export type FormErrorTarget<Values extends FieldValues> = { setError: UseFormSetError<Values>; setFocus: UseFormSetFocus<Values> };

/**
 * The one way server field errors reach a form. Puts a failed action's field errors on the
 * react-hook-form fields they name (every message of a field, joined), focuses the first of them
 * in page order, and returns the message for the whole form. Field paths the form does not have
 * go to the form message, so nothing the server said is lost.
 */
export function applyActionErrors<Values extends FieldValues>(
  failure: Pick<ActionFailure, "fieldErrors" | "formError">,
  form: FormErrorTarget<Values>,
  fieldsInPageOrder: readonly Path<Values>[],
): string | undefined {
  const unplaced: string[] = [];
  for (const [field, messages] of Object.entries(failure.fieldErrors)) {
    if ((fieldsInPageOrder as readonly string[]).includes(field)) {
      form.setError(field as Path<Values>, { type: "server", message: messages.join(" ") });
    } else {
      unplaced.push(...messages);
    }
  }
  focusFirstInvalid(form, Object.keys(failure.fieldErrors), fieldsInPageOrder);
  const formMessage = [failure.formError, ...unplaced].filter(Boolean).join(" ");
  return formMessage || undefined;
}

/**
 * Focuses the first field with an error in page order. react-hook-form's own choice follows the
 * order fields registered in, which differs from the page when fields render inside components.
 */
export function focusFirstInvalid<Values extends FieldValues>(
  form: Pick<FormErrorTarget<Values>, "setFocus">,
  invalidNames: readonly string[],
  fieldsInPageOrder: readonly Path<Values>[],
): void {
  const first = fieldsInPageOrder.find((name) => invalidNames.includes(name));
  if (first) form.setFocus(first);
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
  form: FormErrorTarget<Values>,
  fieldsInPageOrder: readonly Path<Values>[],
  fallbackMessage: string,
): FormFailure {
  const hasFieldErrors = Object.keys(failure.fieldErrors).some((field) => (fieldsInPageOrder as readonly string[]).includes(field));
  const message = applyActionErrors(failure, form, fieldsInPageOrder) ?? fallbackMessage;
  return { message, supportCode: failure.requestId, hasFieldErrors };
}

/** The Alert props of a form failure: it takes the focus unless a field already did. */
export function formFailureAlertProps(failure: FormFailure): { attention?: FormFailure; supportCode?: string } {
  return { attention: failure.hasFieldErrors ? undefined : failure, supportCode: failure.supportCode };
}
