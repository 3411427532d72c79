/**
 * The result of a field's normaliser: the value to keep, or the message to show. Each form field
 * is a plain normaliser, testable without zod and shared with the inputs that format as you type;
 * `token-form-rules.ts` makes each a field rule, and `token-forms.ts` the server's zod schema.
 */
export type Normalised<Value = string> = { ok: true; value: Value } | { ok: false; message: string };
