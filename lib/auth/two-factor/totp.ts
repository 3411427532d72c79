import { createHmac } from "node:crypto";

/**
 * RFC 6238 authenticator codes (30-s steps, 6 digits, HMAC-SHA1), as better-auth's twoFactor
 * plugin and every authenticator app compute them. Used where Veridesk computes a code itself:
 * the tests, and the published authenticator of the demo administrators in test runs.
 */

export const TOTP_PERIOD_MS = 30_000;

const BASE32_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

export function base32Decode(text: string): Uint8Array {
  const clean = text.toUpperCase().replace(/[\s=-]/g, "");
  const bytes: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const character of clean) {
    const value = BASE32_ALPHABET.indexOf(character);
    if (value < 0) throw new Error("not a base32 secret");
    buffer = (buffer << 5) | value;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((buffer >> bits) & 0xff);
    }
  }
  return Uint8Array.from(bytes);
}

/** The step a moment falls in. */
export function totpStepAt(ms: number): number {
  return Math.floor(ms / TOTP_PERIOD_MS);
}

/** The code of one step. */
export function totpCode(secret: Uint8Array, step: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac("sha1", secret).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const value = (mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return value.toString().padStart(6, "0");
}

/** The base32 secret an `otpauth://` URI carries. */
export function secretOfTotpUri(uri: string): string {
  const secret = new URL(uri).searchParams.get("secret");
  if (!secret) throw new Error("the authenticator URI carries no secret");
  return secret;
}

/** The secret in groups of four, for typing it into an authenticator app by hand. */
export function groupedSecret(secret: string): string {
  return secret.match(/.{1,4}/g)?.join(" ") ?? secret;
}
