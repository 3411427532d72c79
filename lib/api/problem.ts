import { errorCatalog, type AppError, type ErrorCode } from "@/lib/errors";

/**
 * Every error of the API in one shape: RFC 9457 problem details, `code` being lib/errors.ts's, so
 * a caller branches on a stable code and a person reads `detail`. Field errors name the API's own
 * (snake_case) fields.
 */

export const PROBLEM_CONTENT_TYPE = "application/problem+json";

export type ProblemBody = {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
  request_id?: string;
  errors?: Record<string, string[]>;
};

/** Where statuses differ from the staff pages' (the IETF Idempotency-Key draft's 400 and 422). */
export type ProblemOverrides = { status?: number };

export function problemType(code: ErrorCode): string {
  return `urn:veridesk:problem:${code.toLowerCase().replaceAll("_", "-")}`;
}

function titleOf(code: ErrorCode): string {
  const words = code.toLowerCase().replaceAll("_", " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function problemBody(error: AppError, options: ProblemOverrides & { requestId?: string; renameField?: (field: string) => string } = {}): ProblemBody {
  const rename = options.renameField ?? ((field: string) => field);
  const errors = error.fieldErrors ? Object.fromEntries(Object.entries(error.fieldErrors).map(([field, messages]) => [rename(field), messages])) : undefined;
  return {
    type: problemType(error.code),
    title: titleOf(error.code),
    status: options.status ?? errorCatalog[error.code].httpStatus,
    detail: error.userMessage,
    code: error.code,
    ...(options.requestId ? { request_id: options.requestId } : {}),
    ...(errors && Object.keys(errors).length > 0 ? { errors } : {}),
  };
}

export function problemResponse(body: ProblemBody, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status: body.status,
    headers: { "content-type": PROBLEM_CONTENT_TYPE, "cache-control": "no-store", ...headers },
  });
}
