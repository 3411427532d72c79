import "server-only";
import { AppError, errorCatalog, type FieldErrors } from "@/lib/errors";
import { serviceErrorResponseSchema } from "./response-schemas";
import { describeReplyBody, isJsonObject, type UpstreamReply } from "./send-request";

/** Makes text from the service safe to put into an error or a log line. */
export type ScrubText = (text: string) => string;

type ServiceComplaint = { message?: string; fieldErrors: FieldErrors };

/** Turns an answer that is not 2xx into the AppError its status calls for. */
export function toServiceError(reply: UpstreamReply, callName: string, scrub: ScrubText): AppError {
  const answered = `${callName} answered ${reply.status} with ${describeReplyBody(reply.body, reply.contentType)}`;

  if (reply.status === 401 || reply.status === 403) {
    return new AppError("UPSTREAM_UNAUTHORIZED", `${answered}: the API key was refused`);
  }
  if (reply.status === 429) {
    const retryAfterMs = readRetryAfterMs(reply.retryAfter);
    return new AppError("UPSTREAM_RATE_LIMITED", `${answered}: too many requests${retryAfterMs === undefined ? "" : `, retry after ${retryAfterMs} ms`}`, {
      retryAfterMs,
    });
  }
  if (reply.status >= 500) {
    return new AppError("UPSTREAM_SERVER_ERROR", answered);
  }
  if (reply.status >= 400) {
    const complaint = readServiceComplaint(reply, scrub);
    const hasFieldErrors = Object.keys(complaint.fieldErrors).length > 0;
    const detail = complaint.message === undefined ? "" : `: ${complaint.message}`;
    return new AppError("UPSTREAM_REJECTED", `${answered}${detail}`, {
      fieldErrors: hasFieldErrors ? complaint.fieldErrors : undefined,
      // A general message only helps the teller when no field carries the explanation; next to
      // field errors it is boilerplate like "Validation failed".
      userMessage:
        complaint.message !== undefined && !hasFieldErrors
          ? `The verification service refused the request: ${complaint.message}`
          : errorCatalog.UPSTREAM_REJECTED.userMessage,
    });
  }
  return new AppError("UPSTREAM_BAD_RESPONSE", `${answered}, a status this client does not expect`);
}

/** Longest wait a Retry-After is believed for: a bogus "retry in a day" must not stop the desk. */
export const MAX_RETRY_AFTER_MS = 10 * 60_000;

/**
 * Reads a Retry-After header: delay-seconds or an HTTP date (RFC 9110 §10.2.3). Undefined when
 * absent or unreadable; capped at MAX_RETRY_AFTER_MS; a date in the past means "now" (0).
 */
export function readRetryAfterMs(header: string | null | undefined, now: number = Date.now()): number | undefined {
  const value = header?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Math.min(MAX_RETRY_AFTER_MS, Number(value) * 1000);
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  return Math.min(MAX_RETRY_AFTER_MS, Math.max(0, at - now));
}

/**
 * Reads field messages from the error-body shapes APIs commonly use: `{errors:{field:[msg]}}`,
 * `{errors:{field:msg}}`, `{errors:[msg | {field,message}]}`, plus a general `message`. Field
 * names stay as the service spells them; lib/validation maps them back to form fields.
 */
export function readServiceComplaint(reply: UpstreamReply, scrub: ScrubText): ServiceComplaint {
  if (reply.body.kind !== "json") return { fieldErrors: {} };
  const parsed = serviceErrorResponseSchema.safeParse(reply.body.value);
  if (!parsed.success) return { fieldErrors: {} };

  const fieldErrors: FieldErrors = {};
  const generalMessages: string[] = [];
  const addFieldError = (field: string, message: unknown) => {
    if (typeof message !== "string" || message.trim() === "") return;
    (fieldErrors[field] ??= []).push(scrub(message.trim()));
  };

  const { errors } = parsed.data;
  if (Array.isArray(errors)) {
    for (const entry of errors) {
      if (typeof entry === "string") generalMessages.push(entry);
      else if (isJsonObject(entry)) {
        const field = entry.field ?? entry.param ?? entry.path;
        if (typeof field === "string") addFieldError(field, entry.message ?? entry.msg);
      }
    }
  } else if (isJsonObject(errors)) {
    for (const [field, messages] of Object.entries(errors)) {
      for (const message of Array.isArray(messages) ? messages : [messages]) addFieldError(field, message);
    }
  }

  const message = [parsed.data.message ?? parsed.data.responsemessage ?? parsed.data.error, ...generalMessages]
    .filter((text): text is string => text !== undefined && text.trim() !== "")
    .map((text) => scrub(text.trim()))
    .join("; ");
  return { message: message === "" ? undefined : message, fieldErrors };
}
