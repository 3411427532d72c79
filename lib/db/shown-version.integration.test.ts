import { randomUUID } from "node:crypto";
import { eq, getTableColumns, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tokenRequests, verificationPurposes } from "@/lib/db/schema";
import { aBranch, aStaffMember } from "@/test/kit/builders";
import { DRIVER_LABELS, openScratchDatabase, queryRows, scratchDrivers, type ScratchDatabase } from "@/test/kit/database";
import { unshownTokenColumns } from "@/lib/db/shown-version";

/**
 * `token_requests.shown_version`, kept by the trigger of migration 0015 (ADR 0033), is what the
 * poll routes compare: a change a viewer sees that does not move it would hide a result from a
 * teller. So every column of the schema is changed alone on a real row, on both databases (on
 * PostgreSQL as the app role, as production runs): each shown column must give a new version,
 * each unshown one must keep it. A column added to the schema is in the loop by itself; a column
 * type the loop cannot change fails the test instead of being skipped.
 */

type TokenRequestInsert = typeof tokenRequests.$inferInsert;
const columns = Object.entries(getTableColumns(tokenRequests)) as [keyof TokenRequestInsert & string, PgColumn][];
/** Set by the database itself: not a writer's column. */
const isKeptByTheDatabase = (column: PgColumn) => column.name === "shown_version" || column.generated !== undefined;

function defineShownVersionTests(label: string, createScratch: () => Promise<ScratchDatabase>): void {
  describe(label, () => {
    let scratch: ScratchDatabase;
    /** Two of everything a token row refers to: `base` is the row's, `other` what an update changes it to. */
    const refs = { base: { branchId: "", userId: randomUUID(), purposeId: "" }, other: { branchId: "", userId: randomUUID(), purposeId: "" } };

    beforeAll(async () => {
      scratch = await createScratch();
      const db = scratch.opened.db;
      for (const [side, code] of [["base", "SVB"], ["other", "SVO"]] as const) {
        refs[side].branchId = (await aBranch(db, { code, name: `Shown version ${code}` })).id;
        await aStaffMember(db, { role: "teller", branchId: refs[side].branchId, userId: refs[side].userId, displayName: `Teller ${code}` });
        const [purpose] = await db
          .insert(verificationPurposes)
          .values({ name: `Shown version purpose ${code}`, allowsFingerprint: true, allowsRemote: true, remoteIdTypes: ["GHANA_CARD"] })
          .returning();
        refs[side].purposeId = purpose!.id;
      }
    });

    afterAll(async () => {
      await scratch?.destroy();
    });

    /**
     * A value of the column's type for one side: `base` for the row as inserted, `other` for the
     * update. Each writer's column is set on the base row (none null), so an update changes it.
     */
    function valueFor(key: string, column: PgColumn, side: "base" | "other"): unknown {
      const isBase = side === "base";
      switch (column.name) {
        case "branch_id":
          return refs[side].branchId;
        case "issued_by_user_id":
        case "legal_hold_by_user_id":
          return refs[side].userId;
        case "purpose_id":
          return refs[side].purposeId;
      }
      switch (column.columnType) {
        case "PgUUID":
          return randomUUID();
        case "PgText":
          // Unique columns (token) get a fresh value each time.
          return `${key}-${side}-${randomUUID().slice(0, 8)}`;
        case "PgEnumColumn": {
          const values = (column as PgColumn & { enumValues: string[] }).enumValues;
          return isBase ? values[0] : values[1];
        }
        case "PgTimestamp":
          return new Date(Date.UTC(2026, 10, 26, 10, 0, isBase ? 0 : 1));
        case "PgBoolean":
          return isBase;
        case "PgInteger":
          return isBase ? 1 : 2;
        case "PgJsonb":
          return { sendSms: isBase, skipInstructions: false, captureLocation: false, captureHomeAddress: false, livenessOnly: false };
        default:
          throw new Error(`no test value for ${column.name} (${column.columnType}): add one, so its change is proved to count or not`);
      }
    }

    /** A token row with every writer's column set (none null). */
    async function insertFullRow(): Promise<{ id: string; version: number }> {
      const row: Record<string, unknown> = {};
      for (const [key, column] of columns) if (!isKeptByTheDatabase(column)) row[key] = valueFor(key, column, "base");
      const [inserted] = await scratch.opened.db
        .insert(tokenRequests)
        .values(row as TokenRequestInsert)
        .returning({ id: tokenRequests.id, version: tokenRequests.shownVersion });
      return inserted!;
    }

    async function versionOf(id: string): Promise<number> {
      const [found] = await scratch.opened.db.select({ version: tokenRequests.shownVersion }).from(tokenRequests).where(eq(tokenRequests.id, id));
      return found!.version;
    }

    async function updateAlone(id: string, key: string, value: unknown): Promise<void> {
      await scratch.opened.db
        .update(tokenRequests)
        .set({ [key]: value } as Partial<TokenRequestInsert>)
        .where(eq(tokenRequests.id, id));
    }

    it("the trigger leaves out exactly the unshown columns of lib/db/shown-version.ts, the version and the generated columns", async () => {
      const [kept] = await queryRows<{ names: string[] }>(scratch.opened.db, sql`select public.token_requests_unshown_columns() as names`);
      const expected = [...unshownTokenColumns, ...columns.filter(([, column]) => isKeptByTheDatabase(column)).map(([, column]) => column.name)];
      expect([...kept!.names].sort()).toEqual(expected.sort());
    });

    it("gives every shown column's change a new version, and keeps it for every unshown column's", async () => {
      const moved = (before: number, after: number) => (after > before ? "new version" : after === before ? "same version" : "lower version");
      const seen: string[] = [];
      const expected: string[] = [];
      for (const [key, column] of columns) {
        if (isKeptByTheDatabase(column)) continue;
        const should = unshownTokenColumns.has(column.name) ? "same version" : "new version";
        const { id, version } = await insertFullRow();
        const changed = valueFor(key, column, "other");
        await updateAlone(id, key, changed);
        // The id is a column like any other: once changed, the row goes by the new one.
        const rowId = key === "id" ? (changed as string) : id;
        const afterChange = await versionOf(rowId);
        seen.push(`${column.name}: ${moved(version, afterChange)}`);
        expected.push(`${column.name}: ${should}`);
        // Erasure and a released hold write NULL: that is a change a viewer sees too.
        if (!column.notNull) {
          await updateAlone(rowId, key, null);
          seen.push(`${column.name} → null: ${moved(afterChange, await versionOf(rowId))}`);
          expected.push(`${column.name} → null: ${should}`);
        }
      }
      expect(seen).toEqual(expected);
      expect(expected.filter((line) => line.endsWith("same version")).length).toBeGreaterThanOrEqual(unshownTokenColumns.size);
    });

    it("keeps the version when an update writes the values the row already has", async () => {
      const { id, version } = await insertFullRow();
      const [row] = await scratch.opened.db.select().from(tokenRequests).where(eq(tokenRequests.id, id));
      const { shownVersion: _kept, msToResult: _generated, ...writable } = row!;
      await scratch.opened.db.update(tokenRequests).set(writable).where(eq(tokenRequests.id, id));
      expect(await versionOf(id)).toBe(version);
    });

    it("sets the version itself, whatever a writer says: a new one on insert, the old one on an update that changes nothing shown", async () => {
      const first = await insertFullRow();
      const second = await insertFullRow();
      expect(second.version).toBeGreaterThan(first.version);
      await updateAlone(second.id, "shownVersion", first.version);
      expect(await versionOf(second.id)).toBe(second.version);
      await updateAlone(second.id, "leaseOwner", "watcher-2");
      expect(await versionOf(second.id)).toBe(second.version);

      const row: Record<string, unknown> = { shownVersion: first.version };
      for (const [key, column] of columns) if (!isKeptByTheDatabase(column)) row[key] = valueFor(key, column, "base");
      const [inserted] = await scratch.opened.db
        .insert(tokenRequests)
        .values(row as TokenRequestInsert)
        .returning({ version: tokenRequests.shownVersion });
      expect(inserted!.version).toBeGreaterThan(second.version);
    });
  });
}

for (const driver of scratchDrivers()) defineShownVersionTests(DRIVER_LABELS[driver], () => openScratchDatabase({ driver, name: "shown-version" }));
