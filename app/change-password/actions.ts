"use server";

import { headers } from "next/headers";
import { defineAction } from "@/lib/actions";
import { replaceTemporaryPassword } from "@/lib/staff/password-change";
import { changePasswordSchema } from "@/lib/staff/change-password-schema";
import { getDb } from "@/lib/db/client";

/**
 * Replaces the temporary password with the staff member's own (ADR 0012). With sign-out, the
 * only action open to staff who still hold a temporary password; it answers a fresh session cookie.
 */
export const changeTemporaryPasswordAction = defineAction(
  { name: "auth.change_password", schema: changePasswordSchema, permission: null, allowsPendingPasswordChange: true },
  async ({ input, staff, requestId }) => {
    await replaceTemporaryPassword(await getDb(), staff, input, await headers(), requestId);
    return { home: "/" };
  },
);
