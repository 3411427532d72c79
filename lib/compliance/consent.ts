import "server-only";
import { desc, eq } from "drizzle-orm";
import { z } from "zod";
import { recordAuditEvent } from "@/lib/audit";
import type { DbExecutor } from "@/lib/db/types";
import { consentWordings } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import { consentMessages } from "@/lib/validation/token-form-shape";

/**
 * The consent wording tellers read to the customer (ADR 0023). Versioned: publishing
 * adds a row and never edits one, so each token's `consent_wording_version` names the exact words.
 */

export type ConsentWordingView = { version: number; text: string; createdAt: string; createdByName: string | null };

export const consentWordingInputSchema = z.object({
  text: z
    .string({ error: "Enter the wording." })
    .transform((value) => value.replace(/\r\n?/g, "\n").trim())
    .pipe(
      z
        .string()
        .min(40, { error: "The wording is too short to tell the customer what is checked (at least 40 characters)." })
        .max(2_000, { error: "Keep the wording under 2 000 characters: the teller reads it out." })
        .refine((value) => !/[\u0000-\u0009\u000b-\u001f\u007f]/.test(value), { error: "Remove control characters from the wording." }),
    ),
});

export async function currentConsentWording(db: DbExecutor): Promise<ConsentWordingView> {
  const [row] = await db.select().from(consentWordings).orderBy(desc(consentWordings.version)).limit(1);
  if (!row) throw new AppError("CONFIGURATION", "no consent wording in consent_wordings (the migration inserts version 1)");
  return { version: row.version, text: row.text, createdAt: row.createdAt.toISOString(), createdByName: null };
}

export async function consentWordingByVersion(db: DbExecutor, version: number): Promise<string | null> {
  const [row] = await db.select({ text: consentWordings.text }).from(consentWordings).where(eq(consentWordings.version, version));
  return row?.text ?? null;
}

export async function listConsentWordings(db: DbExecutor): Promise<ConsentWordingView[]> {
  const rows = await db.query.consentWordings.findMany({ orderBy: desc(consentWordings.version) });
  return rows.map((row) => ({ version: row.version, text: row.text, createdAt: row.createdAt.toISOString(), createdByName: null }));
}

/**
 * Refuses a token without the customer's consent under the wording in force, as a field error on
 * the confirmation. Runs before the row is written and before any call to the service.
 */
export async function requireCurrentConsent(db: DbExecutor, consent: { attested: boolean; wordingVersion: number }): Promise<number> {
  if (consent.attested !== true) {
    throw new AppError("VALIDATION", "consent not attested", {
      userMessage: consentMessages.required,
      fieldErrors: { consentAttested: [consentMessages.required] },
    });
  }
  const current = await currentConsentWording(db);
  if (consent.wordingVersion !== current.version) {
    throw new AppError("VALIDATION", `consent attested under wording v${consent.wordingVersion}, v${current.version} in force`, {
      userMessage: consentMessages.wordingChanged,
      fieldErrors: { consentAttested: [consentMessages.wordingChanged] },
    });
  }
  return current.version;
}

/** Publishes a new wording as the next version, audited in the same transaction. */
export async function publishConsentWording(
  db: DbExecutor,
  admin: { userId: string; username: string },
  text: string,
  requestId?: string,
): Promise<ConsentWordingView> {
  return db.transaction(async (tx) => {
    const current = await currentConsentWording(tx);
    if (current.text === text) {
      throw new AppError("VALIDATION", "consent wording unchanged", {
        userMessage: "This is already the wording in force.",
        fieldErrors: { text: ["This is already the wording in force. Change it before publishing."] },
      });
    }
    const version = current.version + 1;
    // The primary key on version makes two admins publishing at once collide instead of both winning.
    const [row] = await tx.insert(consentWordings).values({ version, text, createdByUserId: admin.userId }).returning();
    if (!row) throw new AppError("INTERNAL", "consent wording insert returned nothing");
    await recordAuditEvent(tx, {
      action: "consent.wording_publish",
      actor: admin,
      subject: { type: "consent_wording", id: String(version) },
      details: { version, previousVersion: current.version, text },
      requestId,
    });
    return { version, text, createdAt: row.createdAt.toISOString(), createdByName: admin.username };
  });
}
