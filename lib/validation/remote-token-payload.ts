import type { FingerprintTokenRequest, RemoteTokenRequest } from "@/lib/upstream/types";
import type { FingerprintTokenForm, RemoteTokenForm } from "./token-form-shape";
import type { TokenKind } from "@/lib/domain/token-kinds";
import { ID_TYPE_DESCRIPTORS, idTypeDescriptor, type IdTypeDescriptor } from "@/lib/domain/id-types";

/**
 * The one mapping between the forms and the service's field names, both ways: form values to the
 * request the upstream client sends, and the service's field names in a 422 back to form fields.
 * Only types come from lib/upstream, so this module stays importable anywhere.
 */

const flag = (isOn: boolean): "0" | "1" => (isOn ? "1" : "0");

/**
 * The multipart payload: exactly the fields of the chosen ID type and `verificationtype` 3.
 * Every option is sent explicitly (0 or 1) rather than left to the provider's defaults, except
 * `verification_mode_id`, which the spec wants omitted for full KYC, and an empty e-mail.
 */
export function toRemoteTokenRequest(values: RemoteTokenForm): RemoteTokenRequest {
  const common = {
    verificationtype: "3" as const,
    phonenumber: values.phoneNumber,
    referenceid: values.referenceId,
    purpose: values.purpose,
    send_token_to_client: flag(values.sendSms),
    with_instructions: flag(!values.skipInstructions),
    require_location: flag(values.captureLocation),
    require_address_location: flag(values.captureHomeAddress),
    ...(values.livenessOnly ? { verification_mode_id: "7" as const } : {}),
    ...(values.email === undefined ? {} : { email: values.email }),
  };
  const descriptor: IdTypeDescriptor = idTypeDescriptor(values.idType);
  const typed = values as unknown as Record<string, string>;
  const idFields: Record<string, string> = { [descriptor.number.providerField]: typed[descriptor.number.field] ?? "" };
  if (descriptor.dateOfBirth) idFields[descriptor.dateOfBirth.providerField] = typed.dateOfBirth ?? "";
  return { id_type: values.idType, ...idFields, ...common } as RemoteTokenRequest;
}

export function toFingerprintTokenRequest(values: FingerprintTokenForm, branchName: string): FingerprintTokenRequest {
  return {
    idNumber: values.ghanaCardNumber,
    referenceId: values.referenceId,
    purpose: values.purpose,
    branchName,
  };
}

const remoteFormFieldByServiceField: Record<string, string> = {
  id_type: "idType",
  // Each type's ID fields, under the provider's names its descriptor gives.
  ...Object.fromEntries(
    ID_TYPE_DESCRIPTORS.flatMap((descriptor: IdTypeDescriptor) => [
      [descriptor.number.providerField, descriptor.number.field],
      ...(descriptor.dateOfBirth ? [[descriptor.dateOfBirth.providerField, "dateOfBirth"]] : []),
    ]),
  ),
  phonenumber: "phoneNumber",
  referenceid: "referenceId",
  purpose: "purpose",
  email: "email",
  send_token_to_client: "sendSms",
  with_instructions: "skipInstructions",
  require_location: "captureLocation",
  require_address_location: "captureHomeAddress",
  verification_mode_id: "livenessOnly",
};

const fingerprintFormFieldByServiceField: Record<string, string> = {
  id_number: "ghanaCardNumber",
  referenceid: "referenceId",
  purpose: "purpose",
};

export type MappedServiceErrors = {
  fieldErrors: Record<string, string[]>;
  /** Messages about fields the form does not show (e.g. branch_name), for the form-level alert. */
  otherMessages: string[];
};

/**
 * The service names fields its own way in a 422 and often repeats the name in the message
 * ("ghanacardnumber must match…"); the teller sees the message under the field they typed.
 */
export function mapServiceFieldErrors(
  kind: TokenKind,
  serviceErrors: Record<string, string[]> | undefined,
): MappedServiceErrors {
  const byServiceField = kind === "remote" ? remoteFormFieldByServiceField : fingerprintFormFieldByServiceField;
  const mapped: MappedServiceErrors = { fieldErrors: {}, otherMessages: [] };
  for (const [serviceField, messages] of Object.entries(serviceErrors ?? {})) {
    const formField = byServiceField[serviceField];
    const readable = messages.map((message) => `The service says: ${message}`);
    if (formField === undefined) mapped.otherMessages.push(...readable);
    else (mapped.fieldErrors[formField] ??= []).push(...readable);
  }
  return mapped;
}
