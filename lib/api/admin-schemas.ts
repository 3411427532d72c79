import { z } from "zod";
import { API_KEY_ENVIRONMENTS } from "./key-format";
import { API_SCOPES } from "./scopes";

/** What the API keys page's actions take (app/(staff)/admin/api-keys/actions.ts). */

export const proposeApiKeySchema = z.object({
  name: z.string().trim().min(2, "Name the integration (2 to 80 characters).").max(80, "Name the integration (2 to 80 characters)."),
  environment: z.enum(API_KEY_ENVIRONMENTS),
  scopes: z.array(z.enum(API_SCOPES)).min(1, "Choose at least one scope."),
  branchIds: z.array(z.uuid()).min(1, "Choose at least one branch."),
  expiresInDays: z.coerce.number().int("Whole days.").min(1, "1 to 730 days.").max(730, "1 to 730 days."),
  rateLimitPerMinute: z.coerce.number().int("A whole number.").min(1, "1 to 1000 a minute.").max(1000, "1 to 1000 a minute."),
});

export const apiKeyDecisionSchema = z.object({ keyId: z.uuid() });

/** A roll's proposal names the key alone: the new key's grant is the old one's, and the overlap starts when a second administrator approves. */
export const rollApiKeySchema = z.object({ keyId: z.uuid() });
