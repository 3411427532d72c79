import { z } from "zod";

/** Revealing a full ID number needs a reason a colleague could check later. */
export const revealIdNumberSchema = z.object({
  tokenRequestId: z.string().uuid("This token cannot be found."),
  reason: z
    .string({ error: "Say why you need the full number." })
    .trim()
    .min(10, "Say why you need the full number, in a few words (at least 10 characters).")
    .max(300, "Keep the reason under 300 characters."),
});
