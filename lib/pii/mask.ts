/**
 * Masked forms of customer data for screens, lists and exports. Pure functions of the value, with
 * no key or server import, so client components may use them on data they were already given.
 */

const hidden = "•";

/** Letters and digits only, upper case: what the last-four and the masks count. */
function significantCharacters(idNumber: string): string {
  return idNumber.toUpperCase().replace(/[^A-Z0-9]/g, "");
}

export function lastFourOf(idNumber: string): string {
  return significantCharacters(idNumber).slice(-4);
}

/**
 * `GHA-123456789-0` → `GHA-•••••789-0`; other documents → `••••4567`. Enough to confirm with the
 * customer which card it was, never enough to use it.
 */
export function maskIdNumber(idType: string, lastFour: string): string {
  if (idType === "GHANA_CARD" && lastFour.length === 4) {
    return `GHA-${hidden.repeat(5)}${lastFour.slice(0, 3)}-${lastFour.slice(3)}`;
  }
  return `${hidden.repeat(4)}${lastFour}`;
}

/** `0241234567` → `024 ••• 4567`: the network prefix and last digits, to read back to the customer. */
export function maskPhoneNumber(localNumber: string): string {
  const digits = localNumber.replace(/\D/g, "");
  if (digits.length < 7) return hidden.repeat(digits.length);
  return `${digits.slice(0, 3)} ${hidden.repeat(digits.length - 7)} ${digits.slice(-4)}`;
}

/** `ama.mensah@example.com` → `a•••@example.com`. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at <= 0) return hidden.repeat(3);
  return `${email[0]}${hidden.repeat(3)}${email.slice(at)}`;
}

/**
 * The reference as lists show it: free text the teller typed, usually the customer's phone. Every
 * run of 7 to 12 digits (spaces, dashes, brackets and a leading + inside it included: a Ghana
 * mobile in any of its written forms, 0XX…, 233…, +233 …) is masked like a phone number, so no full
 * phone number is ever displayed however it was typed; other text, and longer numbers such as
 * timestamps or account numbers of 13+ digits, stay.
 */
export function maskReference(reference: string): string {
  return reference.replace(/\+?\d[\d\s()-]{5,}\d/g, (run) => {
    const digits = run.replace(/\D/g, "");
    return digits.length >= 7 && digits.length <= 12 ? maskPhoneNumber(digits) : run;
  });
}
