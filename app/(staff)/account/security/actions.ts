"use server";

import { headers } from "next/headers";
import { z } from "zod";
import { defineAction } from "@/lib/actions";
import { PASSWORD_MAX } from "@/lib/auth/password-rules";
import { renewBackupCodes } from "@/lib/auth/two-factor/enrolment";
import { getDb } from "@/lib/db/client";

/** New backup codes for the signed-in staff member's own account (the old ones stop working). */
export const renewBackupCodesAction = defineAction(
  { name: "auth.backup_codes.renew", schema: z.object({ password: z.string().min(1, "Enter your password.").max(PASSWORD_MAX * 4) }), permission: null },
  async ({ input, staff, requestId }) => ({ backupCodes: await renewBackupCodes(await getDb(), staff, input.password, await headers(), requestId) }),
);
