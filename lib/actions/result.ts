import type { ErrorCode, FieldErrors } from "@/lib/errors";

/**
 * What every server action of Veridesk answers. Plain data (no classes) so it crosses the
 * server→client boundary as is; forms map `fieldErrors` onto their fields with `setError`.
 */
export type ActionFailure = {
  ok: false;
  code: ErrorCode;
  /** A message for the whole form, meant for the staff member (never internal detail). */
  formError?: string;
  /** Field path ("idNumber", "options.sendSms") → messages; ALL of them, not just the first. */
  fieldErrors: FieldErrors;
  /** Quote it to support: it finds every log line of this call. */
  requestId?: string;
  /** The record the failure concerns, for a link (an issuing attempt whose outcome is unknown). */
  subjectId?: string;
};

export type ActionResult<T> = { ok: true; data: T } | ActionFailure;
