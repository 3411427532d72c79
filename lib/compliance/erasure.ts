import "server-only";
import { sql, type SQL } from "drizzle-orm";
import type { DbExecutor } from "@/lib/db/types";
import { contactPiiColumns, erasedFingerprint, identityPiiColumns, piiTable } from "@/lib/pii/columns";
import type { ErasureBasis } from "@/lib/pii/erasure-note";

/**
 * Overwrites a token's personal data (ADR 0022). The columns come from lib/pii/columns.ts,
 * the one list of personal data, so nothing is missed. Each UPDATE re-checks, under the row lock,
 * that the part is not erased yet and the row is not under a legal hold: two runs at once, or a
 * hold placed a moment ago, can never erase a row twice or erase a held row. A token an open risk
 * case holds as evidence (risk_case_tokens, ADR 0046) is held too, invisibly. Returns the ids it
 * actually erased.
 */

export type ErasurePart = "contact" | "identity";

function assignmentsFor(part: ErasurePart): SQL {
  const list = part === "contact" ? contactPiiColumns : identityPiiColumns;
  const nulled = [...list.encrypted.map((entry) => entry.column), ...list.blindIndex.map((entry) => entry.column), ...list.masked.filter((column) => column !== "request_fingerprint")];
  const assignments = nulled.map((column) => sql`${sql.identifier(column)} = NULL`);
  // The request fingerprint is NOT NULL (it keys idempotent submits): a marker replaces the digest.
  if ((list.masked as readonly string[]).includes("request_fingerprint")) assignments.push(sql`"request_fingerprint" = ${erasedFingerprint}`);
  return sql.join(assignments, sql`, `);
}

export async function erasePart(executor: DbExecutor, ids: readonly string[], part: ErasurePart, under: ErasureBasis, at: Date): Promise<string[]> {
  if (ids.length === 0) return [];
  const erasedAt = part === "contact" ? sql.identifier("contact_erased_at") : sql.identifier("identity_erased_at");
  const erasedUnder = part === "contact" ? sql.identifier("contact_erased_under") : sql.identifier("identity_erased_under");
  const idList = sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const result = (await executor.execute(sql`
    UPDATE ${sql.identifier(piiTable)}
       SET ${assignmentsFor(part)}, ${erasedAt} = ${at.toISOString()}::timestamptz, ${erasedUnder} = ${under}
     WHERE "id" IN (${idList}) AND ${erasedAt} IS NULL AND "legal_hold_at" IS NULL
       AND NOT EXISTS (SELECT 1 FROM "risk_case_tokens" "held" WHERE "held"."token_request_id" = ${sql.identifier(piiTable)}."id" AND "held"."released_at" IS NULL)
     RETURNING "id"`)) as unknown as { rows: { id: string }[] };
  return result.rows.map((row) => row.id);
}
