import type { TokenKind } from "@/lib/domain/token-kinds";
import { ID_TYPES, idTypeLabels, type IdType } from "@/lib/domain/id-types";

/**
 * The purpose policy check: may a token of this kind, with this ID document, be issued
 * for this purpose? Plain data in, a verdict out — the server asks it before anything reaches the
 * service, and the forms ask it to offer only what it allows, so the two can never disagree.
 * Fingerprint tokens always use the Ghana Card (the only card with fingerprints on record).
 */

export type { TokenKind };

export type PurposePolicy = {
  id: string;
  name: string;
  allowsFingerprint: boolean;
  allowsRemote: boolean;
  /** ID documents a remote token may use for this purpose. */
  remoteIdTypes: readonly IdType[];
  isActive: boolean;
};

/** The verdict, with the field the teller must change and a message naming the policy. */
export type PolicyVerdict = { ok: true } | { ok: false; field: "purpose" | "idType"; message: string };

export const unknownPurposeMessage = "Choose one of the bank's purposes from the list.";

const kindWords: Record<TokenKind, string> = { fingerprint: "fingerprint tokens", remote: "remote tokens" };

/** The ID documents a token of this kind may use for the purpose (empty when the kind is not allowed). */
export function allowedIdTypes(policy: PurposePolicy, kind: TokenKind): IdType[] {
  if (!policy.isActive) return [];
  if (kind === "fingerprint") return policy.allowsFingerprint ? ["GHANA_CARD"] : [];
  if (!policy.allowsRemote) return [];
  // In the canonical order, whatever order the row holds them in.
  return ID_TYPES.filter((type) => policy.remoteIdTypes.includes(type));
}

export function isPurposeOfferedFor(policy: PurposePolicy, kind: TokenKind): boolean {
  return allowedIdTypes(policy, kind).length > 0;
}

export function checkPurposePolicy(policy: PurposePolicy | undefined, kind: TokenKind, idType: IdType): PolicyVerdict {
  if (!policy || !policy.isActive) return { ok: false, field: "purpose", message: unknownPurposeMessage };
  const allowed = allowedIdTypes(policy, kind);
  if (allowed.length === 0) {
    return { ok: false, field: "purpose", message: `The bank's policy for "${policy.name}" does not allow ${kindWords[kind]}.` };
  }
  if (!allowed.includes(idType)) {
    return { ok: false, field: "idType", message: `The bank's policy for "${policy.name}" allows only ${listOf(allowed.map((type) => idTypeLabels[type]))}.` };
  }
  return { ok: true };
}

/** "Ghana Card", "Ghana Card or Passport", "Ghana Card, Voter ID or Passport". */
export function listOf(words: readonly string[]): string {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} or ${words.at(-1)}`;
}

/** One line for the admin list and the forms: what the policy allows. */
export function describePolicy(policy: Pick<PurposePolicy, "allowsFingerprint" | "allowsRemote" | "remoteIdTypes">): string {
  const parts: string[] = [];
  if (policy.allowsFingerprint) parts.push("Fingerprint (Ghana Card)");
  if (policy.allowsRemote && policy.remoteIdTypes.length > 0) {
    parts.push(`Remote (${listOf(ID_TYPES.filter((type) => policy.remoteIdTypes.includes(type)).map((type) => idTypeLabels[type]))})`);
  }
  return parts.length > 0 ? parts.join(" · ") : "No token allowed";
}
