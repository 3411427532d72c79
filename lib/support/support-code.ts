/**
 * The request id every server action and route handler logs under, short enough to read out on
 * the phone: 8 characters from an alphabet with no look-alikes (no 0/O, 1/I/L, U, 5/S, 2/Z), so
 * "Reference for support: K7QXM4PA" is typed into a log search without a second guess. The
 * screen shows exactly what the logs and the audit trail carry, no grouping dash (ADR 0029).
 */
export const supportCodeAlphabet = "346789ABCDEFGHJKMNPQRTVWXY";
export const supportCodeLength = 8;

const pattern = new RegExp(`^[${supportCodeAlphabet}]{${supportCodeLength}}$`);

/** A fresh support code from the platform's CSPRNG, without modulo bias (rejection sampling). */
export function newSupportCode(random: (bytes: Uint8Array) => Uint8Array = (bytes) => globalThis.crypto.getRandomValues(bytes)): string {
  const alphabetSize = supportCodeAlphabet.length;
  // The largest multiple of the alphabet below 256: bytes at or above it would favour the first letters.
  const limit = 256 - (256 % alphabetSize);
  let code = "";
  while (code.length < supportCodeLength) {
    for (const byte of random(new Uint8Array(supportCodeLength * 2))) {
      if (byte >= limit) continue;
      code += supportCodeAlphabet[byte % alphabetSize];
      if (code.length === supportCodeLength) break;
    }
  }
  return code;
}

/** What staff read back, in any case, with or without the dash or spaces → the logged code, or null. */
export function parseSupportCode(typed: string): string | null {
  const code = typed.replace(/[\s-]/g, "").toUpperCase();
  return isSupportCode(code) ? code : null;
}

export function isSupportCode(value: string): boolean {
  return pattern.test(value);
}
