import type { FieldValues, Path, UseFormReturn } from "react-hook-form";

/**
 * Focuses the first field with an error in page order. react-hook-form's own choice follows the
 * order fields registered in, which differs from the page when fields render inside components.
 */
export function focusFirstInvalid<Values extends FieldValues>(
  form: UseFormReturn<Values, unknown, unknown>,
  invalidNames: readonly string[],
  fieldsInPageOrder: readonly string[],
): void {
  const first = fieldsInPageOrder.find((name) => invalidNames.includes(name));
  if (first) form.setFocus(first as Path<Values>);
}

/**
 * Puts the server's field errors under the fields they name (all of them), focusing the first.
 * Messages for names the form does not show go to the form's root error instead of vanishing.
 */
export function applyServerFieldErrors<Values extends FieldValues>(
  form: UseFormReturn<Values, unknown, unknown>,
  fieldErrors: Record<string, string[]>,
  fieldsInPageOrder: readonly string[],
): void {
  const unknownMessages: string[] = [];
  for (const [name, messages] of Object.entries(fieldErrors)) {
    if (!fieldsInPageOrder.includes(name)) {
      unknownMessages.push(...messages);
      continue;
    }
    form.setError(name as Path<Values>, { type: "server", message: messages.join(" ") });
  }
  if (unknownMessages.length > 0) form.setError("root.server", { type: "server", message: unknownMessages.join(" ") });
  focusFirstInvalid(form, Object.keys(fieldErrors), fieldsInPageOrder);
}
