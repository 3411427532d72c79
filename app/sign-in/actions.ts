"use server";

import { headers } from "next/headers";
import { z } from "zod";
import { defineAction } from "@/lib/actions";
import { recordAuditEvent } from "@/lib/audit";
import { getAuth } from "@/lib/auth/server";
import { getDb } from "@/lib/db/client";

/**
 * Signs out: the session row is deleted on the server (the cookie alone would still be valid
 * until it expired) and the cookie is cleared.
 */
export const signOutAction = defineAction(
  {
    name: "auth.sign_out",
    schema: z.object({ reason: z.enum(["user", "idle", "absolute"]).default("user") }),
    permission: null,
    // Someone handed a temporary password may always leave instead of choosing a new one.
    allowsPendingPasswordChange: true,
    // …and so may someone who must set up a second factor.
    allowsPendingSecondFactor: true,
  },
  async ({ input, staff, requestId }) => {
    const auth = await getAuth();
    await auth.api.signOut({ headers: await headers() });
    await recordAuditEvent(await getDb(), {
      action: "auth.sign_out",
      actor: { userId: staff.userId, username: staff.username },
      subject: { type: "session", id: staff.session.id },
      branchId: staff.branch.id,
      details: { reason: input.reason },
      requestId,
    });
    // Veridesk's session is gone; a bank sign-in's session at the identity provider is not.
    return { signedOut: true, bankSessionRemains: staff.session.signInMethod === "sso" };
  },
);
