import { randomInt } from "node:crypto";

const TOKEN_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

function randomDigits(length: number): string {
  let digits = "";
  for (let i = 0; i < length; i += 1) digits += String(randomInt(10));
  return digits;
}

/** 8 or 9 upper-case letters and digits, like the provider's examples (the length varies on purpose). */
export function generateTokenValue(): string {
  const length = randomInt(8, 10);
  let token = "";
  for (let i = 0; i < length; i += 1) token += TOKEN_ALPHABET[randomInt(TOKEN_ALPHABET.length)];
  return token;
}

/** Segment lengths follow the provider's two published examples (STE for success, INP for failure). */
export function generateTransactionNumber(isSuccessful: boolean): string {
  return isSuccessful
    ? `GH-STE-${randomDigits(9)}-${randomDigits(6)}-${randomDigits(4)}`
    : `GH-INP-${randomDigits(8)}-${randomDigits(7)}-${randomDigits(6)}`;
}
