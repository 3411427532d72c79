import "server-only";
import type { BranchScope } from "@/lib/auth/branch-scope";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";
import { isAppError } from "@/lib/errors";
import { decryptField } from "@/lib/pii";
import { deriveTokenState } from "@/lib/tokens/state";
import {
  defaultRemoteOptions,
  emptyRemoteTokenForm,
  type FingerprintTokenFormInput,
  type RemoteTokenFormInput,
} from "@/lib/validation";
import { readScopedTokenRequest } from "./live-token-view";
import { watcherSettingsFrom } from "./settings";
import { factsFromRow } from "./token-facts";

export type RestartValues =
  | { kind: "fingerprint"; fromToken: string | null; values: FingerprintTokenFormInput }
  | { kind: "remote"; fromToken: string | null; values: RemoteTokenFormInput };

/**
 * "New token for this customer": the form values of an expired, failed or invalid token, read and
 * decrypted on the server, so the ID number never travels in a URL (the link carries the token
 * request's uuid only). Null for an id that is unknown, of another branch, of the other kind, or
 * of a token that may still succeed.
 */
export async function loadRestartValues(scope: BranchScope, id: string, kind: "fingerprint"): Promise<Extract<RestartValues, { kind: "fingerprint" }> | null>;
export async function loadRestartValues(scope: BranchScope, id: string, kind: "remote"): Promise<Extract<RestartValues, { kind: "remote" }> | null>;
export async function loadRestartValues(scope: BranchScope, id: string, kind: "fingerprint" | "remote"): Promise<RestartValues | null> {
  let row;
  try {
    ({ row } = await readScopedTokenRequest(await getDb(), scope, id));
  } catch (error) {
    if (isAppError(error) && error.code === "NOT_FOUND") return null;
    throw error;
  }
  const { state } = deriveTokenState(factsFromRow(row), new Date(), watcherSettingsFrom(env()).follow);
  if (row.kind !== kind || !["expired", "failed", "invalid"].includes(state)) return null;

  // Erased identity data cannot be restarted from: the teller types the customer's details again.
  if (row.identityErasedAt !== null || row.idNumberEncrypted === null) return null;
  const decrypt = (column: string, stored: string | null) =>
    stored === null ? undefined : decryptField(stored, `token_requests.${column}:${row.id}`);
  const idNumber = decrypt("id_number", row.idNumberEncrypted) ?? "";
  const reference = decrypt("reference", row.referenceEncrypted) ?? "";
  // The consent is never carried over: the teller asks the customer again for the new token.
  const consent = { consentAttested: false, consentWordingVersion: 0 };

  if (kind === "fingerprint") {
    return {
      kind,
      fromToken: row.token,
      values: { ghanaCardNumber: idNumber, referenceId: reference, purpose: row.purpose ?? "", ...consent },
    };
  }
  const empty = emptyRemoteTokenForm(row.idType);
  const common = {
    phoneNumber: decrypt("phone_number", row.phoneNumberEncrypted) ?? "",
    referenceId: reference,
    purpose: row.purpose ?? "",
    email: decrypt("email", row.emailEncrypted) ?? "",
    ...defaultRemoteOptions,
    ...(row.options ?? {}),
    ...consent,
  };
  const values: RemoteTokenFormInput = (() => {
    switch (empty.idType) {
      case "GHANA_CARD":
        return { ...empty, ...common, ghanaCardNumber: idNumber };
      case "VOTER":
        return { ...empty, ...common, voterId: idNumber };
      case "PASSPORT":
        return { ...empty, ...common, passportNumber: idNumber };
      case "DRIVER_LICENCE":
        return { ...empty, ...common, driverLicenceNumber: idNumber, dateOfBirth: decrypt("date_of_birth", row.dateOfBirthEncrypted) ?? "" };
    }
  })();
  return { kind, fromToken: row.token, values };
}
