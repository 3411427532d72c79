import "server-only";
import { idTypeDescriptor, type IdTypeDescriptor } from "@/lib/domain/id-types";
import type { FingerprintTokenRequest, RemoteTokenRequest } from "./types";

/** A request body together with the values in it that must never reach a log or an error message. */
type PreparedBody<Body> = { body: Body; sensitiveValues: string[] };

// A blank optional field from a form means "not given"; sending it empty could read as a value.
function isGiven(value: string | undefined): value is string {
  return value !== undefined && value.trim() !== "";
}

export function buildFingerprintTokenBody(request: FingerprintTokenRequest): PreparedBody<string> {
  const body: Record<string, string> = { id_number: request.idNumber, referenceid: request.referenceId };
  if (isGiven(request.purpose)) body.purpose = request.purpose;
  if (isGiven(request.branchName)) body.branch_name = request.branchName;
  return { body: JSON.stringify(body), sensitiveValues: [request.idNumber] };
}

const optionalRemoteFields = [
  "send_token_to_client",
  "email",
  "with_instructions",
  "require_location",
  "require_address_location",
  "verification_mode_id",
] as const;

/**
 * The multipart body of the remote token call. Fields are picked by name rather than copied, so a
 * value left over from another id_type (a voter ID typed before switching to Ghana Card) is never sent.
 */
export function buildRemoteTokenForm(request: RemoteTokenRequest): PreparedBody<FormData> {
  const form = new FormData();
  form.set("id_type", request.id_type);
  form.set("verificationtype", request.verificationtype);
  form.set("phonenumber", request.phonenumber);
  form.set("referenceid", request.referenceid);
  form.set("purpose", request.purpose);
  for (const field of optionalRemoteFields) {
    const value = request[field];
    if (isGiven(value)) form.set(field, value);
  }
  const idFields = pickIdFields(request);
  for (const [field, value] of Object.entries(idFields)) form.set(field, value);
  return { body: form, sensitiveValues: Object.values(idFields) };
}

/** The chosen type's ID fields only, by the provider names of its descriptor. */
function pickIdFields(request: RemoteTokenRequest): Record<string, string> {
  const descriptor: IdTypeDescriptor = idTypeDescriptor(request.id_type);
  const fields = [descriptor.number.providerField, ...(descriptor.dateOfBirth ? [descriptor.dateOfBirth.providerField] : [])];
  const sent = request as unknown as Record<string, string>;
  return Object.fromEntries(fields.map((field) => [field, sent[field] ?? ""]));
}
