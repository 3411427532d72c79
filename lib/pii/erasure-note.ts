/**
 * What an erased field reads, everywhere it would show (ADR 0022): "erased on 3 Mar 2031 under the
 * retention policy". Pure (no server import), so pages, the slip, exports and the customer's record
 * all say it the same way.
 */

import { formatDate } from "@/lib/bank-time";
import { maskFreeText } from "./mask";

export const erasureBases = ["retention", "request"] as const;
export type ErasureBasis = (typeof erasureBases)[number];

/** "3 Mar 2031": the bank's one date format (lib/bank-time.ts). */
export function formatErasureDay(at: string | Date | number): string {
  return formatDate(at);
}

export function erasedText(at: string | Date | number, under: string | null): string {
  const basis = under === "request" ? "at the customer's request" : "under the retention policy";
  return `erased on ${formatErasureDay(at)} ${basis}`;
}

/** An erased field's display, or the value when not erased: `{ erased: "erased on …" } | null`. */
export function erasureNoteOf(at: Date | string | null, under: string | null): string | null {
  return at === null ? null : erasedText(at, under);
}

type IdentityFacts = { idType: string; idNumberLast4: string | null; identityErasedAt: Date | string | null; identityErasedUnder: string | null };
type ContactFacts = { contactErasedAt: Date | string | null; contactErasedUnder: string | null };

/**
 * The masked ID number, or what replaced it. `maskIdNumber` is passed in so that this module stays
 * free of lib/pii's key-holding imports.
 */
export function displayIdNumber(row: IdentityFacts, mask: (idType: string, lastFour: string) => string): string {
  if (row.idNumberLast4 !== null) return mask(row.idType, row.idNumberLast4);
  return erasedText(row.identityErasedAt ?? new Date(0), row.identityErasedUnder);
}

/** A masked contact value (reference, phone), or what replaced it once erased; null when there never was one. */
export function displayContact(masked: string | null, row: ContactFacts): string | null {
  if (masked !== null) return masked;
  return row.contactErasedAt === null ? null : erasedText(row.contactErasedAt, row.contactErasedUnder);
}

/**
 * The teller's reference in every output (pages, lists, CSV, the API, webhooks): the stored masked
 * copy through the one free-text rule again (lib/pii/mask.ts `maskFreeText`, which leaves a masked
 * text as it is), so a copy written under an older, looser rule (two phones in a row were kept)
 * leaves masked all the same; once erased, the note that says when and why.
 */
export function displayReference(masked: string | null, row: ContactFacts): string | null {
  return displayContact(masked === null ? null : maskFreeText(masked), row);
}
