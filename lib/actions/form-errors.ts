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
