import "server-only";
import type { IdType, ProviderIdFieldsOf } from "@/lib/domain/id-types";

/** Input of the fingerprint token call; the client renames the fields to the service's names. */
export type FingerprintTokenRequest = {
  /** Ghana Card number, already normalised to GHA-XXXXXXXXX-X. */
  idNumber: string;
  referenceId: string;
  purpose?: string;
  branchName?: string;
};

export type FingerprintToken = {
  token: string;
  /** The service's confirmation text, when it sends one (the spec does not show the response). */
  message?: string;
};

type ZeroOrOne = "0" | "1";

/** Fields the service accepts for every id_type, named as the service names them. */
type RemoteTokenCommonFields = {
  verificationtype: "3";
  phonenumber: string;
  referenceid: string;
  purpose: string;
  send_token_to_client?: ZeroOrOne;
  email?: string;
  with_instructions?: ZeroOrOne;
  require_location?: ZeroOrOne;
  require_address_location?: ZeroOrOne;
  /** "7" asks for a liveness-only token; omitted means full KYC. */
  verification_mode_id?: "7";
};

/**
 * The multipart payload of the remote token call, one branch per id_type, its ID fields named as
 * the type's descriptor says (lib/domain/id-types.ts). lib/validation maps form values into it;
 * the client sends exactly the fields of the chosen branch.
 */
export type RemoteTokenRequest = RemoteTokenCommonFields & { [Type in IdType]: { id_type: Type } & ProviderIdFieldsOf<Type> }[IdType];

export type RemoteToken = {
  token: string;
  /** The number the service says it sent the link to (the requested one if it does not say). */
  phoneNumber: string;
  message?: string;
};

export type TokenState = {
  state: "pending" | "used" | "invalid";
  /** The service's own wording, kept for the audit trail. */
  message: string;
};

export type TokenResult =
  | {
      kind: "result";
      status: "SUCCESSFUL" | "FAILED";
      transactionNumber: string;
      /** The service's failure text; only sent with FAILED. */
      error?: string;
      token: string;
    }
  | { kind: "no-result"; message?: string }
  | { kind: "invalid" };

export interface UpstreamClient {
  initiateFingerprintToken(request: FingerprintTokenRequest): Promise<FingerprintToken>;
  initiateRemoteToken(request: RemoteTokenRequest): Promise<RemoteToken>;
  checkTokenState(token: string): Promise<TokenState>;
  getTokenResult(token: string): Promise<TokenResult>;
}
