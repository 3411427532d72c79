import { createHash, randomBytes } from "node:crypto";

/**
 * The API key's shape (ADR 0044): `vdk_live_` or `vdk_test_`, 40 random base62 characters
 * (about 238 bits) and a 6-character base62 CRC-32 of everything before it. The checksum lets a
 * typo or a truncated paste be refused before any database read, and lets secret scanners tell a
 * real key from a look-alike. Only the SHA-256 of the whole key is stored: a key this random
 * cannot be guessed from its hash, so a slow password hash would only slow every request.
 */

export const API_KEY_ENVIRONMENTS = ["live", "test"] as const;
export type ApiKeyEnvironment = (typeof API_KEY_ENVIRONMENTS)[number];

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const RANDOM_LENGTH = 40;
const CHECKSUM_LENGTH = 6;
const KEY_PATTERN = /^vdk_(live|test)_([0-9A-Za-z]{40})([0-9A-Za-z]{6})$/;

function base62(bytes: Buffer, length: number): string {
  let out = "";
  // Rejection sampling keeps every character equally likely (256 is not a multiple of 62).
  for (const byte of bytes) {
    if (byte >= 248) continue;
    out += ALPHABET[byte % 62];
    if (out.length === length) break;
  }
  return out;
}

function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) out += base62(randomBytes(length * 2), length - out.length);
  return out;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(text: string): number {
  let crc = 0xffffffff;
  for (const byte of Buffer.from(text, "utf8")) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function checksumOf(body: string): string {
  let value = crc32(body);
  let out = "";
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = ALPHABET[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

export function generateApiKey(environment: ApiKeyEnvironment): string {
  const body = `vdk_${environment}_${randomBase62(RANDOM_LENGTH)}`;
  return `${body}${checksumOf(body)}`;
}

/** The key's environment when its shape and checksum hold; null for anything else (no lookup then). */
export function parseApiKey(key: string): { environment: ApiKeyEnvironment } | null {
  const match = KEY_PATTERN.exec(key);
  if (!match) return null;
  const body = key.slice(0, key.length - CHECKSUM_LENGTH);
  if (checksumOf(body) !== match[3]) return null;
  return { environment: match[1] as ApiKeyEnvironment };
}

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/** What an admin sees of a key: enough to match it with the integration's configuration. */
export function hintOf(key: string): string {
  return `${key.slice(0, 13)}…${key.slice(-4)}`;
}

export { RANDOM_LENGTH as API_KEY_RANDOM_LENGTH };
