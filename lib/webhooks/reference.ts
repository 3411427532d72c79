import { displayReference } from "@/lib/pii/erasure-note";
import { maskFreeText } from "@/lib/pii/mask";

/**
 * The reference as Veridesk gives it to the bank's systems, in the API's answers and in webhooks
 * alike: as every page and export shows it (lib/pii/erasure-note.ts `displayReference`). Plain,
 * for the schemas' description as well.
 */

export const SHARED_REFERENCE_DESCRIPTION =
  "The reference given when the token was issued, with every run of 7 or more digits (a phone number however written, several in a row included) masked as `024 ••• 4567`, Ghana Card numbers as `GHA-•••••789-0` and e-mail addresses as `a•••@example.com`; other text stays. Once the customer's contact data is erased, a note such as `erased on 3 Mar 2031 under the retention policy`; null when none was given.";

export type ReferenceFacts = { referenceMasked: string | null; contactErasedAt: Date | string | null; contactErasedUnder: string | null };

export function sharedReference(row: ReferenceFacts): string | null {
  return displayReference(row.referenceMasked, row);
}

/** The service's own words about a result (free text too: it may quote what it was sent), as they leave the app. */
export function sharedFreeText(text: string | null): string | null {
  return text === null ? null : maskFreeText(text);
}
