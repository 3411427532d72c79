import { afterAll, beforeAll, expect, it } from "vitest";
import { authUsers } from "@/lib/db/schema";
import { describeAuditDetails } from "./audit-details";
import { loadAuditNames } from "./audit-trail";
import { forEachDatabase, openScratchDatabase, type ScratchDatabase } from "@/test/kit/database";

/** The audit page's name look-up, on a scratch PGlite and (TEST_DATABASE_URL set) a scratch PostgreSQL. */
function defineNameTests(createDatabase: () => Promise<ScratchDatabase>) {
  let scratch: ScratchDatabase;

  beforeAll(async () => {
    scratch = await createDatabase();
  }, 120_000);

  afterAll(async () => {
    await scratch?.destroy();
  });

  it("names a staff account whose id is not a uuid (a demo teller's) instead of failing the page", async () => {
    const db = scratch.opened.db;
    await db.insert(authUsers).values({ id: "demo-ama.mensah", name: "Ama Mensah", email: "ama.mensah@staff.invalid", username: "ama.mensah" });
    const details = { kind: "role_change", username: "ama.mensah", subjectUserId: "demo-ama.mensah", proposedBy: "kofi.admin" };
    const names = await loadAuditNames(db, [{ details }]);
    expect(names.staff["demo-ama.mensah"]).toEqual({ name: "Ama Mensah", username: "ama.mensah" });
    expect(describeAuditDetails(details, names).find((line) => line.key === "subjectUserId")).toMatchObject({ value: "Ama Mensah (ama.mensah)" });
  });
}

forEachDatabase("audit names", (driver) => defineNameTests(() => openScratchDatabase({ driver, name: "audit-names" })));
