import type { FingerprintTokenFormInput, RemoteTokenFormInput } from "@/lib/validation/token-form-shape";

/**
 * "New token for this customer" as the browser sees it (ADR 0038): which of the customer's
 * details an earlier token can carry over, and what the form page is given of them — a masked
 * display each, never the value. The values stay on the server: the form sends the earlier
 * token request's id and the names of the fields it carried, and the issuing action fills them in
 * (lib/tokens/restart-values.ts). Plain data, no server import: the form loads it.
 */

/** The personal fields a new token may carry over from an earlier one, by the forms' field names. */
export const carriableFields = ["ghanaCardNumber", "voterId", "passportNumber", "driverLicenceNumber", "dateOfBirth", "phoneNumber", "email", "referenceId"] as const;
export type CarriableField = (typeof carriableFields)[number];

export function isCarriableField(name: string): name is CarriableField {
  return (carriableFields as readonly string[]).includes(name);
}

/** What a restarting submit adds to the form's own fields. */
export type RestartSubmission = {
  /** The earlier token request whose details the server fills in. */
  restartFrom?: string;
  /** The fields the teller kept from it (the form sends them empty). */
  carriedFields?: CarriableField[];
};

/**
 * The form page's start of a new token from an earlier one: the values anyone may see (ID type,
 * purpose, options), and for each personal field carried over its masked display only.
 */
export type RestartPrefill<Values> = {
  fromTokenRequestId: string;
  /** The earlier token's code, to name it; null for an attempt the service never answered. */
  fromToken: string | null;
  /** The form's starting values, every personal field empty. */
  values: Values;
  /** Field → masked display ("GHA-•••••789-0"). */
  carried: Partial<Record<CarriableField, string>>;
};

export type FingerprintRestartPrefill = RestartPrefill<FingerprintTokenFormInput>;
export type RemoteRestartPrefill = RestartPrefill<RemoteTokenFormInput>;

export const restartMessages = {
  notIssuer: "Only the teller who issued that token can start a new one from it.",
  /** Under a carried field the server could not fill (erased meanwhile, or of another ID type). */
  noLongerAvailable: "The earlier token no longer holds this: type it.",
} as const;

/** `1988-03-14` → `••/••/1988`: the year is enough to confirm it with the customer. */
export function maskDateOfBirth(isoDate: string): string {
  const year = /^(\d{4})-\d{2}-\d{2}$/.exec(isoDate)?.[1];
  return year ? `••/••/${year}` : "••/••/••••";
}
