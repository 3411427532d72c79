import { z } from "zod";
import { cleanPastedText } from "./pasted-text";

/**
 * The token a teller types from the customer's SMS, to attach to an issuing attempt whose answer
 * never came (ADR 0017). The provider's tokens are upper-case letters and digits (8–9 in its
 * examples; the length is not fixed), so spaces and dashes a customer reads out are dropped and
 * the letters upper-cased.
 */
export const smsTokenMessages = {
  required: "Type the token from the customer's SMS.",
  shape: "A token is letters and digits only, like X7Q3BMSAB. Check the SMS again.",
} as const;

export const smsTokenSchema = z.string().transform((raw, context) => {
  const cleaned = cleanPastedText(raw).replace(/[\s-]/g, "").toUpperCase();
  if (cleaned === "") {
    context.addIssue({ code: "custom", message: smsTokenMessages.required });
    return z.NEVER;
  }
  // Only ASCII letters and digits pass: control characters, look-alike digits and SQL never reach the database.
  if (!/^[A-Z0-9]{4,32}$/.test(cleaned)) {
    context.addIssue({ code: "custom", message: smsTokenMessages.shape });
    return z.NEVER;
  }
  return cleaned;
});

export const attachSmsTokenSchema = z.object({
  tokenRequestId: z.uuid(),
  token: smsTokenSchema,
});

export type AttachSmsTokenInput = z.input<typeof attachSmsTokenSchema>;
