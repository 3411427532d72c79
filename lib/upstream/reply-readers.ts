import "server-only";
import type { z } from "zod";
import { AppError } from "@/lib/errors";
import {
  tokenNoResultResponseSchema,
  tokenResultResponseSchema,
  tokenStateResponseSchema,
} from "./response-schemas";
import { describeReplyBody, isJsonObject, type UpstreamReply } from "./send-request";
import { toServiceError, type ScrubText } from "./service-errors";
import { isInvalidTokenMessage, readTokenStateMessage } from "./token-messages";
import type { TokenResult, TokenState } from "./types";

export type ReplyContext = { callName: string; scrub: ScrubText };

function isSuccessStatus(status: number): boolean {
  return status >= 200 && status < 300;
}

/** The JSON of a 2xx answer; any other answer becomes the matching AppError. */
function readJsonBody(reply: UpstreamReply, context: ReplyContext): unknown {
  if (!isSuccessStatus(reply.status)) throw toServiceError(reply, context.callName, context.scrub);
  if (reply.body.kind !== "json") {
    throw new AppError(
      "UPSTREAM_MALFORMED",
      `${context.callName} answered ${reply.status} with ${describeReplyBody(reply.body, reply.contentType)}`,
    );
  }
  return reply.body.value;
}

function wrongShape(context: ReplyContext, detail: string): AppError {
  return new AppError("UPSTREAM_BAD_RESPONSE", `${context.callName} answered JSON of an unexpected shape: ${detail}`);
}

// Zod issue messages name the path and the expected type, never the received value, so they are
// safe to keep in an error message.
function summariseIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join(".") || "(body)"}: ${issue.message}`).join("; ");
}

export function readJsonReply<Schema extends z.ZodType>(
  reply: UpstreamReply,
  context: ReplyContext,
  schema: Schema,
): z.output<Schema> {
  const parsed = schema.safeParse(readJsonBody(reply, context));
  if (!parsed.success) throw wrongShape(context, summariseIssues(parsed.error));
  return parsed.data;
}

export function readTokenStateReply(reply: UpstreamReply, context: ReplyContext): TokenState {
  const { responsemessage } = readJsonReply(reply, context, tokenStateResponseSchema);
  const state = readTokenStateMessage(responsemessage);
  if (state === undefined) {
    throw wrongShape(context, `responsemessage "${context.scrub(responsemessage)}" is none of the three state messages`);
  }
  return { state, message: responsemessage.trim() };
}

/** Statuses that say something about us or the service, never about the token: always a fault. */
const faultStatuses: ReadonlySet<number> = new Set([401, 403, 407, 408, 429]);

/**
 * token_status is documented only for tokens with a result; the answer for the others is unknown
 * (provider notes: 200 with no `status`, a message, or a 4xx, possibly a gateway's HTML page).
 * Veridesk asks it only once check_token_status has said the token is used, so the key and the
 * base URL are proven: any answer that carries no result then means "not finished yet" — `{}`, a
 * message, or a 4xx with any body (ADR 0017). "Invalid Token" is `invalid`. Still faults: 401/403,
 * 429, 5xx, a timeout, and a 2xx we cannot read (it might have been a result).
 */
export function readTokenResultReply(reply: UpstreamReply, context: ReplyContext, queriedToken: string): TokenResult {
  const isNoResultStatus = reply.status >= 400 && reply.status < 500 && !faultStatuses.has(reply.status);
  if (isNoResultStatus) {
    const message = reply.body.kind === "json" ? readNoResultMessage(reply.body.value) : undefined;
    if (message !== undefined && isInvalidTokenMessage(message)) return { kind: "invalid" };
    const said = message === undefined ? describeReplyBody(reply.body, reply.contentType) : `"${context.scrub(message.trim())}"`;
    return { kind: "no-result", message: `${reply.status} with ${said}` };
  }
  const body = readJsonBody(reply, context);

  const result = tokenResultResponseSchema.safeParse(body);
  if (result.success) {
    const { token, status, transactionnumber, error } = result.data.status;
    // A result filed under another token would be recorded against the wrong person.
    if (token.toUpperCase() !== queriedToken.toUpperCase()) {
      throw wrongShape(context, `status.token "${token}" is not the token queried ("${queriedToken}")`);
    }
    return { kind: "result", status, transactionNumber: transactionnumber, token, ...(error ? { error } : {}) };
  }
  if (isJsonObject(body) && isJsonObject(body.status)) {
    // A status object is the documented result; one we cannot read must not pass for "no result yet".
    throw wrongShape(context, summariseIssues(result.error));
  }

  if (!isJsonObject(body) || !tokenNoResultResponseSchema.safeParse(body).success) {
    throw wrongShape(context, "neither a status object nor a message");
  }
  const message = readNoResultMessage(body);
  if (message === undefined) {
    const hasOtherContent = Object.entries(body).some(([key, value]) => key !== "status" && value != null);
    if (hasOtherContent) throw wrongShape(context, "no status object, no message, and fields this client does not know");
    return { kind: "no-result" };
  }
  if (isInvalidTokenMessage(message)) return { kind: "invalid" };
  if (/^(successful|failed)$/i.test(message.trim())) {
    // An outcome outside the status object has no transaction number; calling it "no result" would hide it.
    throw wrongShape(context, `outcome "${message.trim()}" outside a status object`);
  }
  return { kind: "no-result", message: context.scrub(message.trim()) };
}

function readNoResultMessage(body: unknown): string | undefined {
  const parsed = tokenNoResultResponseSchema.safeParse(body);
  if (!parsed.success) return undefined;
  const { status, responsemessage, message } = parsed.data;
  const candidates = [typeof status === "string" ? status : undefined, responsemessage, message];
  return candidates.find((text): text is string => text !== undefined && text.trim() !== "");
}
