import { displayContact } from "@/lib/pii/erasure-note";

/**
 * The reference as Veridesk gives it to the bank's systems, in the API's answers and in webhooks
 * alike. The teller's free text is often the customer's phone, so it goes out as the lists show
 * it (lib/pii/mask.ts `maskReference`, written when the token is issued): every run of 7 to 12
 * digits masked like a phone number. Once the customer's contact data is erased, the note that
 * says when and why; null when none was given. Plain, for the schemas' description as well.
 */

export const SHARED_REFERENCE_DESCRIPTION =
  "The reference given when the token was issued, with every run of 7 to 12 digits (a phone number however written) masked as `024 ••• 4567`; other text and longer numbers stay. Once the customer's contact data is erased, a note such as `erased on 3 Mar 2031 under the retention policy`; null when none was given.";

export type ReferenceFacts = { referenceMasked: string | null; contactErasedAt: Date | string | null; contactErasedUnder: string | null };

export function sharedReference(row: ReferenceFacts): string | null {
  return displayContact(row.referenceMasked, row);
}
