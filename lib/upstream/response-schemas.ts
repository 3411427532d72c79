import "server-only";
import { z } from "zod";

/**
 * Shapes of the service's answers. Every object is loose (the provider may add fields at any time)
 * but the fields we act on are checked strictly: a token we cannot read is an error, never a guess.
 */

const tokenValueSchema = z.string().trim().min(1);

/** The spec does not show this response; provider notes say `{message, data:{token}}`. */
export const fingerprintTokenResponseSchema = z
  .looseObject({
    message: z.string().optional(),
    responsemessage: z.string().optional(),
    data: z
      .looseObject({ token: tokenValueSchema.optional(), verificationtoken: tokenValueSchema.optional() })
      .nullish(),
    token: tokenValueSchema.optional(),
    verificationtoken: tokenValueSchema.optional(),
  })
  .transform((body, context) => {
    const token = body.data?.token ?? body.data?.verificationtoken ?? body.token ?? body.verificationtoken;
    if (token === undefined) {
      context.addIssue({ code: "custom", message: "no token in data.token, token or verificationtoken" });
      return z.NEVER;
    }
    return { token, message: body.message ?? body.responsemessage };
  });

export const remoteTokenResponseSchema = z.looseObject({
  verificationtoken: tokenValueSchema,
  phonenumber: z.string().optional(),
  responsemessage: z.string().optional(),
});

export const tokenStateResponseSchema = z.looseObject({
  responsemessage: z.string(),
});

/** The documented token_status answer: both outcomes arrive as HTTP 200 inside `status`. */
export const tokenResultResponseSchema = z.looseObject({
  status: z.looseObject({
    token: tokenValueSchema,
    status: z.string().trim().toUpperCase().pipe(z.enum(["SUCCESSFUL", "FAILED"])),
    transactionnumber: z.string().trim().min(1),
    error: z.string().nullish(),
  }),
});

/**
 * Undocumented token_status answers for a token without a result: no `status` object, a
 * `responsemessage`/`message`, or `status` holding a message instead of an object.
 */
export const tokenNoResultResponseSchema = z.looseObject({
  // Some APIs put a flag or an HTTP code here: {status: false, message: "…"}, {status: 404, …}.
  status: z.union([z.string(), z.boolean(), z.number(), z.null()]).optional(),
  responsemessage: z.string().optional(),
  message: z.string().optional(),
});

/** Error bodies seen from HTTP APIs of this kind; anything else yields no field errors. */
export const serviceErrorResponseSchema = z.looseObject({
  message: z.string().optional().catch(undefined),
  responsemessage: z.string().optional().catch(undefined),
  error: z.string().optional().catch(undefined),
  errors: z.unknown().optional(),
});
