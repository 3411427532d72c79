import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { branchScopeFor } from "@/lib/auth/branch-scope";
import { permissionsOf } from "@/lib/auth/permissions";
import type { StaffRole } from "@/lib/domain/staff-roles";
import type { Staff } from "@/lib/auth/types";
import type { Database } from "@/lib/db/types";
import { tokenRequests } from "@/lib/db/schema";
import { demoKnownCustomer, planDemoData } from "@/scripts/demo-data/plan";
import { writeDemoData } from "@/scripts/demo-data/writer";
import { aStaffMember } from "@/test/kit/builders";
import { forEachDatabase, openScratchDatabase, queryRows, scratchPiiKeys, type ScratchDatabase } from "@/test/kit/database";
import { retentionSettingsFrom } from "@/lib/compliance/retention-job";
import { eraseCustomerDataOnRequest, HEAD_OFFICE_HOLD_MESSAGE, placeLegalHold, produceCustomerRecord, releaseLegalHold } from "./customer-record";

/**
 * A customer's records. Legal holds by who placed them: head office's hold (an inquiry a branch may not even know of)
 * is released by head office only; a branch supervisor in scope is refused plainly, the refusal
 * audited, the hold kept. A branch's own hold is released by either. Every event about a
 * customer's record says whose it was by the masked ID number, never the number. PGlite and
 * PostgreSQL.
 */

function defineLegalHoldTests(createDatabase: () => Promise<ScratchDatabase>) {
  let scratch: ScratchDatabase;
  let db: Database;
  let kumasiTokens: string[];
  const keys = scratchPiiKeys();
  const staff: Record<"headOffice" | "kumasi" | "kumasiOther", Staff> = {} as never;

  beforeAll(async () => {
    scratch = await createDatabase();
    db = scratch.opened.db;
    await writeDemoData(db, planDemoData({ now: new Date("2026-11-20T11:00:00Z"), totalTokens: 60 }), { keys });
    const branchIds = new Map((await queryRows<{ id: string; code: string }>(db, sql`select id, code from branches`)).map((row) => [row.code, row.id]));
    const member = async (key: keyof typeof staff, role: StaffRole, code: string) => {
      const userId = `hold-${key}`;
      await aStaffMember(db, { role, branchId: branchIds.get(code)!, userId, username: `hold.${key.toLowerCase()}`, displayName: `Hold ${key}` });
      staff[key] = {
        userId,
        username: `hold.${key.toLowerCase()}`,
        name: `Hold ${key}`,
        role,
        branch: { id: branchIds.get(code)!, code, name: code },
        permissions: permissionsOf(role),
        session: { id: "s", signInMethod: "password", idleExpiresAt: new Date(), absoluteExpiresAt: new Date() },
      };
    };
    await member("headOffice", "head_office_supervisor", "ACC");
    await member("kumasi", "supervisor", "KUM");
    await member("kumasiOther", "supervisor", "KUM");
    kumasiTokens = (await db.select({ id: tokenRequests.id }).from(tokenRequests).where(eq(tokenRequests.branchId, branchIds.get("KUM")!)).limit(3)).map((row) => row.id);
    expect(kumasiTokens).toHaveLength(3);
  }, 120_000);

  afterAll(async () => {
    await scratch?.destroy();
  });

  const contextOf = (member: Staff, requestId: string) => ({ staff: member, scope: branchScopeFor(member), requestId });
  const holdOf = async (id: string) => {
    const [row] = await db.select({ at: tokenRequests.legalHoldAt, byHeadOffice: tokenRequests.legalHoldByHeadOffice }).from(tokenRequests).where(eq(tokenRequests.id, id));
    return row!;
  };
  const auditOf = (requestId: string) => queryRows<{ action: string; actor_user_id: string; details: Record<string, unknown> }>(db, sql`select action, actor_user_id, details from audit_events where request_id = ${requestId}`);

  it("refuses a branch supervisor the release of head office's hold, audited, and the hold stays", async () => {
    const [id] = kumasiTokens;
    await placeLegalHold(db, contextOf(staff.headOffice, "place-1"), { tokenRequestId: id!, reason: "EOCO inquiry 2026/31" });
    expect(await holdOf(id!)).toMatchObject({ byHeadOffice: true });
    expect((await auditOf("place-1"))[0]).toMatchObject({ action: "token.legal_hold_place", details: { byHeadOffice: true } });

    await expect(releaseLegalHold(db, contextOf(staff.kumasi, "release-1"), { tokenRequestId: id!, reason: "Looks finished to me" })).rejects.toMatchObject({
      code: "FORBIDDEN",
      userMessage: HEAD_OFFICE_HOLD_MESSAGE,
    });
    expect((await holdOf(id!)).at).not.toBeNull();
    expect(await auditOf("release-1")).toEqual([
      { action: "token.legal_hold_release_refused", actor_user_id: staff.kumasi.userId, details: expect.objectContaining({ why: "placed by head office", heldFor: "EOCO inquiry 2026/31" }) },
    ]);

    await releaseLegalHold(db, contextOf(staff.headOffice, "release-2"), { tokenRequestId: id!, reason: "EOCO inquiry 2026/31 closed" });
    expect(await holdOf(id!)).toEqual({ at: null, byHeadOffice: false });
    expect((await auditOf("release-2"))[0]).toMatchObject({ action: "token.legal_hold_release", actor_user_id: staff.headOffice.userId, details: { byHeadOffice: true } });
  });

  it("says in each customer event whose record it was: the ID type and masked number, never the number", async () => {
    const typed = { idType: "GHANA_CARD" as const, idNumber: "700000123-4" };
    const settings = retentionSettingsFrom({ RETENTION_CONTACT_DAYS: 365, RETENTION_IDENTITY_YEARS: 7 });
    const record = await produceCustomerRecord(db, keys, settings, contextOf(staff.kumasi, "record-1"), { ...typed, reason: "Customer's written request DSAR-31" });
    expect(record.entries).toHaveLength(demoKnownCustomer.tokenCount);
    await eraseCustomerDataOnRequest(db, keys, contextOf(staff.kumasi, "erase-1"), { ...typed, reason: "Customer's written request DSAR-31" }).catch(() => undefined);
    // A number nobody holds: still says whose it was.
    await produceCustomerRecord(db, keys, settings, contextOf(staff.kumasi, "record-2"), { idType: "PASSPORT", idNumber: "G1234567", reason: "Customer's written request DSAR-32" });
    const events = await queryRows<{ action: string; details: Record<string, unknown> }>(db, sql`select action, details from audit_events where request_id in ('record-1', 'erase-1', 'record-2') order by chain_seq`);
    expect(events.map((event) => [event.action, event.details.idType, event.details.maskedIdNumber])).toEqual([
      ["customer.record_produced", "GHANA_CARD", "GHA-•••••123-4"],
      [expect.stringMatching(/^customer\.erasure_(requested|refused)$/), "GHANA_CARD", "GHA-•••••123-4"],
      ["customer.record_produced", "PASSPORT", "••••4567"],
    ]);
    const written = JSON.stringify(events);
    expect(written).not.toContain("700000123");
    expect(written).not.toContain("G1234567");
  });

  it("lets a branch's own hold be released by another supervisor of the branch, or by head office", async () => {
    const [, first, second] = kumasiTokens;
    await placeLegalHold(db, contextOf(staff.kumasi, "place-2"), { tokenRequestId: first!, reason: "Police request KS/44" });
    expect(await holdOf(first!)).toMatchObject({ byHeadOffice: false });
    await releaseLegalHold(db, contextOf(staff.kumasiOther, "release-3"), { tokenRequestId: first!, reason: "Police request withdrawn" });
    expect((await holdOf(first!)).at).toBeNull();

    await placeLegalHold(db, contextOf(staff.kumasi, "place-3"), { tokenRequestId: second!, reason: "Police request KS/45" });
    await releaseLegalHold(db, contextOf(staff.headOffice, "release-4"), { tokenRequestId: second!, reason: "Police request withdrawn" });
    expect((await holdOf(second!)).at).toBeNull();
  });
}

forEachDatabase("legal holds", (driver) => defineLegalHoldTests(() => openScratchDatabase({ driver, name: "hold" })));
