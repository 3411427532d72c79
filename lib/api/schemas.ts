import { z } from "zod";
import { ID_TYPES, needsDateOfBirth } from "@/lib/domain/id-types";
import { TOKEN_KINDS } from "@/lib/domain/token-kinds";
import { SHARED_REFERENCE_DESCRIPTION } from "@/lib/webhooks/reference";
import { isoInstantSchema } from "@/lib/validation/query-values";
import { API_SCOPES } from "./scopes";

/**
 * The API's request and answer shapes: the routes parse and build with these, and the OpenAPI
 * document (openapi.ts) is generated from them, so the two cannot drift. Field names are the
 * API's (snake_case); tokens.ts maps them onto the issuing forms' own schemas, whose rules then
 * apply unchanged. Nothing here ever carries a full ID number or phone number.
 */

export const API_TOKEN_STATES = ["issuing", "not_issued", "waiting", "in_progress", "successful", "failed", "expired", "invalid", "outcome_unknown"] as const;
export type ApiTokenState = (typeof API_TOKEN_STATES)[number];

const tokenState = z.enum(API_TOKEN_STATES).meta({
  id: "TokenState",
  description:
    "`issuing`: the service has not answered yet. `not_issued`: refused or failed, nothing was issued. `waiting`: issued, the customer has not started. " +
    "`in_progress`, `successful`, `failed`, `expired`, `invalid`: as the service reports them. `outcome_unknown`: the service may or may not have issued a token.",
});

const dateTime = z.iso.datetime({ offset: true });

export const tokenCreateRequestSchema = z
  .object({
    kind: z.enum(TOKEN_KINDS).meta({ description: "`fingerprint` (at a counter with a reader; Ghana Card only) or `remote` (a link sent to the customer)." }),
    id_type: z.enum(ID_TYPES).meta({ description: "The customer's ID document. Fingerprint tokens take `GHANA_CARD` only." }),
    id_number: z.string().min(1).max(40).meta({ description: "The ID number, as printed (e.g. `GHA-123456789-0`). Stored encrypted; never returned." }),
    dob: z.string().max(10).optional().meta({ description: `Date of birth, \`YYYY-MM-DD\`: required for ${ID_TYPES.filter(needsDateOfBirth).map((type) => `\`${type}\``).join(", ")}.` }),
    phone: z.string().max(20).optional().meta({ description: "The customer's mobile number (remote tokens). Stored encrypted; never returned." }),
    email: z.string().max(254).optional().meta({ description: "Where the link also goes by e-mail (remote tokens)." }),
    send_sms: z.boolean().default(true).meta({ description: "Send the link by SMS (remote tokens)." }),
    skip_instructions: z.boolean().default(false),
    capture_location: z.boolean().default(false),
    capture_home_address: z.boolean().default(false),
    liveness_only: z.boolean().default(false),
    reference: z.string().min(1).max(60).meta({ description: "The bank's reference for this verification (often the account or the customer's phone)." }),
    purpose: z.string().min(1).max(80).meta({ description: "A purpose `code` from `GET /api/v1/purposes`." }),
    branch: z.string().min(1).max(20).meta({ description: "The code of a branch the key may act for; the token belongs to it." }),
    consent_version: z.int().positive().meta({
      description: "The version of the consent wording the customer was told and agreed to (`GET /api/v1/purposes`). Sending it attests that consent.",
    }),
    allow_duplicate: z.boolean().default(false).meta({ description: "Issue even if the customer already has an open token (otherwise 409)." }),
  })
  .strict()
  .meta({ id: "TokenCreateRequest" });

export type TokenCreateRequest = z.output<typeof tokenCreateRequestSchema>;

export const tokenCreatedSchema = z
  .object({
    id: z.uuid(),
    token: z.string().meta({ description: "The verification token (fingerprint: typed into the reader app; remote: in the customer's link)." }),
    expires_at: dateTime.nullable(),
    state: tokenState,
  })
  .meta({ id: "TokenCreated" });

export const tokenResultSchema = z
  .object({
    status: z.enum(["SUCCESSFUL", "FAILED"]),
    transaction_number: z.string().nullable().meta({ description: "The service's transaction number (SUCCESSFUL)." }),
    message: z.string().nullable().meta({ description: "The service's text (FAILED)." }),
    at: dateTime.nullable(),
  })
  .meta({ id: "TokenResult" });

export const tokenSchema = z
  .object({
    id: z.uuid(),
    kind: z.enum(TOKEN_KINDS),
    id_type: z.enum(ID_TYPES),
    masked_id_number: z.string().meta({ description: "Only the last characters of the ID number (e.g. `GHA-•••••789-0`)." }),
    reference: z.string().nullable().meta({ description: SHARED_REFERENCE_DESCRIPTION }),
    purpose: z.string().nullable(),
    branch: z.string().meta({ description: "The branch code." }),
    state: tokenState,
    token: z.string().nullable(),
    created_at: dateTime,
    issued_at: dateTime.nullable(),
    expires_at: dateTime.nullable(),
    finished_at: dateTime.nullable(),
    result: tokenResultSchema.nullable(),
    error_code: z.string().nullable().meta({ description: "For `not_issued` and `outcome_unknown`: the lib/errors code of the failure." }),
  })
  .meta({ id: "Token" });

export const tokenListSchema = z.object({ data: z.array(tokenSchema) }).meta({ id: "TokenList" });

export const tokenListQuerySchema = z.object({
  reference: z.string().min(1).max(60).optional().meta({ description: "Only tokens with exactly this reference." }),
  since: isoInstantSchema.optional().meta({ description: "Only tokens created at or after this time, ISO 8601 with an offset, in the years 2000 to 2100 (default: the last 7 days)." }),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

export const tokenIdParamsSchema = z.object({ id: z.uuid().meta({ description: "The token's `id` (from its creation)." }) });

export const purposeSchema = z
  .object({
    code: z.string().meta({ description: "What `purpose` takes when issuing." }),
    name: z.string(),
    kinds: z.array(z.enum(TOKEN_KINDS)),
    id_types: z.array(z.enum(ID_TYPES)).meta({ description: "The ID types a remote token may use for it (fingerprint: Ghana Card)." }),
  })
  .meta({ id: "Purpose" });

export const purposeListSchema = z
  .object({
    data: z.array(purposeSchema),
    consent: z.object({ version: z.int(), text: z.string() }).meta({ description: "The consent wording in force: send its version as `consent_version`." }),
  })
  .meta({ id: "PurposeList" });

export const problemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.int(),
    detail: z.string(),
    code: z.string().meta({ description: "A stable code (VALIDATION, UNAUTHENTICATED, FORBIDDEN, NOT_FOUND, RATE_LIMITED, IDEMPOTENCY_KEY_REUSED, …)." }),
    request_id: z.string().optional(),
    errors: z.record(z.string(), z.array(z.string())).optional().meta({ description: "Messages per request field." }),
  })
  .meta({ id: "Problem", description: "RFC 9457 problem details." });

export const apiScopeSchema = z.enum(API_SCOPES);
