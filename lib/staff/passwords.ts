import { randomInt } from "node:crypto";

/** No 0/O, 1/l/I: a temporary password is read aloud or copied from a screen. */
const alphabet = "abcdefghjkmnpqrstuvwxyz23456789";

/** A one-time password like `k7m2-p9qx-4tnw` (about 64 bits): shown once to the administrator. */
export function generateTemporaryPassword(): string {
  const group = () => Array.from({ length: 4 }, () => alphabet[randomInt(alphabet.length)]).join("");
  return `${group()}-${group()}-${group()}`;
}

export { PASSWORD_MAX, PASSWORD_MIN } from "@/lib/auth/password-rules";
