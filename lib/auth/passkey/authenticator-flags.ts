/**
 * The flags byte of WebAuthn authenticator data (byte 32, after the 32-byte RP ID hash): whether
 * the person touched the authenticator (UP) and whether it checked who they are with a PIN or a
 * fingerprint (UV). Read here before the signature is checked, so that a missing UV is refused
 * by name and audited as such, not lost among "invalid assertion" errors.
 */
const FLAG_USER_PRESENT = 0x01;
const FLAG_USER_VERIFIED = 0x04;
const FLAGS_OFFSET = 32;

export type AuthenticatorFlags = { userPresent: boolean; userVerified: boolean };

/** The flags of base64url authenticator data, or null when it is too short to hold them. */
export function authenticatorFlagsOf(authenticatorDataBase64Url: string): AuthenticatorFlags | null {
  const bytes = Buffer.from(authenticatorDataBase64Url, "base64url");
  // 32 bytes of RP ID hash, 1 of flags, 4 of counter: anything shorter is not authenticator data.
  if (bytes.length < 37) return null;
  const flags = bytes[FLAGS_OFFSET] ?? 0;
  return { userPresent: (flags & FLAG_USER_PRESENT) !== 0, userVerified: (flags & FLAG_USER_VERIFIED) !== 0 };
}

/** The signature counter of the authenticator data (big-endian, after the flags). */
export function signatureCounterOf(authenticatorDataBase64Url: string): number | null {
  const bytes = Buffer.from(authenticatorDataBase64Url, "base64url");
  if (bytes.length < 37) return null;
  return bytes.readUInt32BE(FLAGS_OFFSET + 1);
}

/**
 * Whether a counter reading proves a cloned authenticator: one that counts (either side above 0)
 * must move forward. Authenticators that never count (synced passkeys) send 0 every time.
 */
export function isCounterRegression(stored: number, received: number): boolean {
  return (stored > 0 || received > 0) && received <= stored;
}
