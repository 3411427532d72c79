import "server-only";
import { createHmac } from "node:crypto";
import { getPiiKeys, type PiiKeys } from "./keys";

/**
 * Keyed HMAC-SHA-256 digests: equal inputs give equal digests, so an exact ID number can be found
 * (and the same customer recognised) with an index, yet the digest reveals nothing without the
 * key — unlike a plain hash, which anyone could reverse by trying all 10^10 Ghana Card numbers.
 * Each use has its own domain, so a digest from one use never matches another's.
 */

function keyedDigest(domain: string, text: string, keys: PiiKeys): string {
  return createHmac("sha256", keys.indexKey).update(`${domain}\u0000${text}`, "utf8").digest("base64url");
}

/**
 * The ID number as the index sees it: letters and digits only, upper case. The same document
 * typed with or without dashes gives the same index, whichever form it was issued from.
 */
export function canonicalIdNumber(idNumber: string): string {
  return idNumber.normalize("NFKC").toUpperCase().replace(/[^A-Z0-9]/g, "");
}

export function computeIdNumberIndex(idNumber: string, keys: PiiKeys = getPiiKeys()): string {
  return keyedDigest("id-number", canonicalIdNumber(idNumber), keys);
}

/**
 * The reference as the index sees it: trimmed, inner spaces collapsed, upper case. A reference
 * that reads as a Ghana mobile is already stored in one 10-digit form (lib/validation).
 */
export function canonicalReference(reference: string): string {
  return reference.normalize("NFKC").trim().replace(/\s+/g, " ").toUpperCase();
}

/** Blind index of the reference: the review's exact reference filter (ADR 0023). */
export function computeReferenceIndex(reference: string, keys: PiiKeys = getPiiKeys()): string {
  return keyedDigest("reference", canonicalReference(reference), keys);
}

/**
 * The phone as the index sees it: digits only, in international form, so `0241234567`,
 * `233241234567` and `+233 24 123 4567` are one phone (stored numbers are already `0241234567`).
 */
export function canonicalPhoneNumber(phoneNumber: string): string {
  const digits = phoneNumber.normalize("NFKC").replace(/\D/g, "");
  if (/^0\d{9}$/.test(digits)) return `233${digits.slice(1)}`;
  return digits.replace(/^00/, "");
}

/** Blind index of the customer's phone: the risk rules' "same phone" (ADR 0046). */
export function computePhoneNumberIndex(phoneNumber: string, keys: PiiKeys = getPiiKeys()): string {
  return keyedDigest("phone", canonicalPhoneNumber(phoneNumber), keys);
}

/** `233` for a Ghana number, `other` for any other country: all the "link sent abroad" rule needs to know. */
export function phoneCallingCodeOf(phoneNumber: string): string {
  return canonicalPhoneNumber(phoneNumber).startsWith("233") ? "233" : "other";
}

/**
 * A digest of a whole request, used to recognise "the same submit again" under one idempotency
 * key. Keyed for the same reason as the index: the request holds the ID number.
 */
export function computeRequestFingerprint(request: unknown, keys: PiiKeys = getPiiKeys()): string {
  return keyedDigest("request", canonicalJson(request), keys);
}

/** JSON with object keys sorted at every level, so key order never changes the fingerprint. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, entry]) => entry !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}:${canonicalJson(entry)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
