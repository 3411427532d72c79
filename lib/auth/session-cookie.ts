import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";
import { isSessionCookieName } from "./constants";

/**
 * The session token in a request's `Cookie` header, checked against its signature the way
 * better-auth signs it (`<token>.<base64 HMAC-SHA256(secret, token)>`, URI-encoded). Null when
 * there is none, or when the signature is wrong (a forged or foreign cookie never reaches SQL).
 * Lets the poll routes look a session up in ONE joined statement (session.ts, ADR 0026) instead
 * of better-auth's session query, user query and our profile query.
 */
export function verifiedSessionToken(cookieHeader: string | null, secret: string): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(";")) {
    const separator = part.indexOf("=");
    if (separator < 0) continue;
    const name = part.slice(0, separator).trim();
    if (!isSessionCookieName(name)) continue;
    const token = tokenOf(part.slice(separator + 1).trim(), secret);
    if (token) return token;
  }
  return null;
}

function tokenOf(rawValue: string, secret: string): string | null {
  let value: string;
  try {
    value = decodeURIComponent(rawValue);
  } catch {
    return null;
  }
  const dot = value.lastIndexOf(".");
  if (dot < 1) return null;
  const token = value.slice(0, dot);
  const signature = value.slice(dot + 1);
  if (signature.length !== 44 || !signature.endsWith("=")) return null;
  const expected = createHmac("sha256", secret).update(token, "utf8").digest();
  const given = Buffer.from(signature, "base64");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return token;
}

/** better-auth's encoding of a signed cookie value, for tests. */
export function signSessionToken(token: string, secret: string): string {
  return encodeURIComponent(`${token}.${createHmac("sha256", secret).update(token, "utf8").digest("base64")}`);
}
