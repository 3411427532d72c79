"use server";

import { headers } from "next/headers";
import { z } from "zod";
import { defineAction } from "@/lib/actions";
import { PASSWORD_MAX } from "@/lib/auth/password-rules";
import { confirmEnrolment, startEnrolment } from "@/lib/auth/two-factor/enrolment";
import { getDb } from "@/lib/db/client";

const passwordSchema = z.object({ password: z.string().min(1, "Enter your password.").max(PASSWORD_MAX * 4) });
const codeSchema = z.object({
  code: z
    .string()
    .max(20)
    .transform((code) => code.replace(/\s/g, ""))
    .pipe(z.string().regex(/^\d{6}$/, "The code is 6 digits, as your authenticator app shows it.")),
});

/**
 * Setting up an authenticator app (lib/auth/two-factor/enrolment.ts). With sign-out, the only
 * actions open to a session that must set up a second factor and has none.
 */
export const startEnrolmentAction = defineAction(
  { name: "auth.second_factor.start", schema: passwordSchema, permission: null, allowsPendingSecondFactor: true },
  async ({ input, staff }) => startEnrolment(await getDb(), staff, input.password, await headers()),
);

/** Confirms the app with one of its codes; answers a fresh session cookie signed in with it. */
export const confirmEnrolmentAction = defineAction(
  { name: "auth.second_factor.confirm", schema: codeSchema, permission: null, allowsPendingSecondFactor: true },
  async ({ input, staff, requestId }) => {
    await confirmEnrolment(await getDb(), staff, input.code, await headers(), requestId);
    return { home: "/" };
  },
);
