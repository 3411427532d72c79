import "server-only";
import { randomUUID } from "node:crypto";
import { symmetricEncrypt } from "better-auth/crypto";
import { eq } from "drizzle-orm";
import type { DbExecutor } from "@/lib/db/types";
import { authUsers, twoFactors } from "@/lib/db/schema";
import { env } from "@/lib/env";
import { DEMO_AUTHENTICATOR_SECRET } from "./demo-secret";

/**
 * In test runs the demo administrators come with an authenticator already set up, on the
 * published secret (like the published demo password): the browser suite signs them in by
 * computing the code. A local run does not do this: there they set one up at first sign-in.
 * Stored as better-auth stores one (encrypted with AUTH_SECRET; `base32:` marks a secret given in
 * base32, as an authenticator app reads it). Never in production, where demo accounts are refused.
 */
export async function enrolDemoAuthenticator(db: DbExecutor, userId: string): Promise<void> {
  const settings = env();
  if (settings.APP_ENV !== "test") throw new Error("the demo authenticator is for test runs only");
  const encrypt = (data: string) => symmetricEncrypt({ key: settings.AUTH_SECRET, data });
  await db.insert(twoFactors).values({
    id: randomUUID(),
    userId,
    secret: await encrypt(`base32:${DEMO_AUTHENTICATOR_SECRET}`),
    backupCodes: await encrypt(JSON.stringify([])),
    verified: true,
  });
  await db.update(authUsers).set({ twoFactorEnabled: true }).where(eq(authUsers.id, userId));
}
