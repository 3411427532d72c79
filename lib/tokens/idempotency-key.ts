/**
 * A fresh idempotency key (UUID v4) in the browser or on the server. `crypto.randomUUID` exists
 * only in secure contexts, and a branch PC may reach Veridesk over plain http on the bank's
 * network, so the key is built from `getRandomValues`, which is available everywhere.
 */
export function newIdempotencyKey(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
