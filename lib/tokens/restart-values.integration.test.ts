import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createActionWrapper } from "@/lib/actions/wrapper";
import { permissionsOf } from "@/lib/auth/permissions";
import type { StaffRole } from "@/lib/domain/staff-roles";
import type { Staff } from "@/lib/auth/types";
import type { Database } from "@/lib/db/types";
import { tokenRequests } from "@/lib/db/schema";
import { AppError } from "@/lib/errors";
import { decryptField, type PiiKeys } from "@/lib/pii";
import { aBranch, aStaffMember } from "@/test/kit/builders";
import { forEachDatabase, openScratchDatabase, queryRows, scratchPiiKeys, type ScratchDatabase } from "@/test/kit/database";
import type { UpstreamClient } from "@/lib/upstream";
import { remoteTokenActionSchema } from "@/lib/validation/token-forms";
import { issueRemoteToken, issuerFromStaff, type IssueOverrides } from "./issue-token";
import { restartMessages } from "./restart-fields";
import { restartViewerOf, startRestartForm, withRestartValues, type RestartOverrides } from "./restart-values";
import { newGhanaCardNumber, remoteSubmission, remoteSubmissionOptions } from "@/test/kit/submissions";

/**
 * "New token for this customer" (ADR 0038): the earlier token's details are the issuer's alone,
 * never in what the form page is given, filled in by the issuing action, and every read is
 * audited without a value. Through the same wrapper and issuing use case the real action runs,
 * against a scripted service. PGlite and PostgreSQL.
 */

const silentLog = { info: () => undefined, warn: () => undefined, error: () => undefined, child: () => silentLog };

function scriptedService() {
  const calls: { idNumber: string; phone: string }[] = [];
  let fail: AppError | undefined;
  const upstream: UpstreamClient = {
    initiateFingerprintToken: () => Promise.reject(new Error("not used")),
    initiateRemoteToken: async (request) => {
      calls.push({ idNumber: request.id_type === "GHANA_CARD" ? request.ghanacardnumber : "", phone: request.phonenumber });
      if (fail) throw fail;
      return { token: `RS${randomUUID().slice(0, 6).toUpperCase()}`, phoneNumber: request.phonenumber };
    },
    checkTokenState: () => Promise.reject(new Error("not used")),
    getTokenResult: () => Promise.reject(new Error("not used")),
  };
  return { upstream, calls, failNext: (error: AppError | undefined) => void (fail = error) };
}

function defineRestartTests(createDatabase: () => Promise<ScratchDatabase>) {
  let scratch: ScratchDatabase;
  let db: Database;
  let keys: PiiKeys;
  let service: ReturnType<typeof scriptedService>;
  const staff: Record<"issuer" | "colleague" | "accra" | "supervisor", Staff> = {} as never;

  const restartDeps = (): RestartOverrides => ({ db, keys });
  const issueDeps = (): IssueOverrides => ({ db, keys, upstream: service.upstream, log: { info: () => undefined, error: () => undefined }, pendingWaitMs: 3_000, stalePendingMs: 60_000 });

  /** The remote issuing action as app/(staff)/tokens/new/remote/actions.ts defines it, signed in as `member`. */
  const remoteActionAs = (member: Staff) =>
    createActionWrapper({ getStaff: async () => member, logger: silentLog, newRequestId: () => `req-${randomUUID().slice(0, 8)}` })(
      {
        name: "tokens.issue_remote",
        schema: remoteTokenActionSchema,
        permission: "tokens.issue",
        prepareInput: (raw: unknown, { staff: signedIn, requestId }) => withRestartValues(raw, "remote", restartViewerOf(signedIn), requestId, restartDeps()),
      },
      async ({ input, staff: signedIn, requestId }) => issueRemoteToken(input, issuerFromStaff(signedIn), requestId, issueDeps()),
    );

  const customer = () => {
    const ghanaCardNumber = newGhanaCardNumber();
    return { ghanaCardNumber, phoneNumber: `024${ghanaCardNumber.slice(6, 13)}`, email: `kofi.${ghanaCardNumber.slice(4, 13)}@example.com`, referenceId: `ACC-${ghanaCardNumber.slice(4, 13)}` };
  };

  /** A remote token of the issuer for `details`, ended unused: issued 20 minutes ago. */
  async function expiredTokenOf(details: ReturnType<typeof customer>): Promise<string> {
    const issued = await issueRemoteToken(remoteSubmission({ ...details, purpose: "KYC refresh" }), issuerFromStaff(staff.issuer), "req-earlier", issueDeps());
    if (issued.status !== "issued") throw new Error("expected the earlier token to be issued");
    const twentyMinutesAgo = new Date(Date.now() - 20 * 60_000);
    await db
      .update(tokenRequests)
      .set({ createdAt: twentyMinutesAgo, issuedAt: twentyMinutesAgo, expiresAt: new Date(twentyMinutesAgo.getTime() + 15 * 60_000) })
      .where(eq(tokenRequests.id, issued.tokenRequestId));
    return issued.tokenRequestId;
  }

  const auditOf = (id: string) =>
    queryRows<{ action: string; actor_user_id: string; details: Record<string, unknown>; request_id: string | null }>(
      db,
      sql`select action, actor_user_id, details, request_id from audit_events where subject_id = ${id} and action like 'token.restart_values_%' order by id`,
    );

  const secretsOf = (details: ReturnType<typeof customer>) => [details.ghanaCardNumber, details.ghanaCardNumber.slice(4, 13), details.phoneNumber, details.email, details.referenceId];

  /** What the form sends on a restart: the non-personal fields, the earlier request and the fields it kept. */
  const restartingSubmit = (from: string, carriedFields: string[], typed: Record<string, unknown> = {}) => ({
    idType: "GHANA_CARD" as const,
    purpose: "KYC refresh",
    ...remoteSubmissionOptions,
    idempotencyKey: randomUUID(),
    allowDuplicate: false,
    restartFrom: from,
    carriedFields,
    ...typed,
  });

  beforeAll(async () => {
    scratch = await createDatabase();
    db = scratch.opened.db;
    keys = scratchPiiKeys();
    service = scriptedService();
    const kumasi = await aBranch(db, { code: "KRS", name: "Kumasi – Restart" });
    const accra = await aBranch(db, { code: "ARS", name: "Accra – Restart" });
    const member = async (key: keyof typeof staff, role: StaffRole, branch: { id: string; code: string; name: string }) => {
      const userId = `restart-${key}`;
      await aStaffMember(db, { role, branchId: branch.id, userId, username: `restart.${key}`, displayName: `Restart ${key}` });
      staff[key] = {
        userId,
        username: `restart.${key}`,
        name: `Restart ${key}`,
        role,
        branch,
        permissions: permissionsOf(role),
        session: { id: "s", signInMethod: "password", idleExpiresAt: new Date(), absoluteExpiresAt: new Date() },
      };
    };
    await member("issuer", "teller", kumasi);
    await member("colleague", "teller", kumasi);
    await member("accra", "teller", accra);
    await member("supervisor", "supervisor", kumasi);
  }, 120_000);

  afterAll(async () => {
    await scratch?.destroy();
  });

  it("gives a colleague of the same branch neither the values nor their masks, and records the refusal", async () => {
    const details = customer();
    const earlier = await expiredTokenOf(details);

    const start = await startRestartForm(restartViewerOf(staff.colleague), earlier, "remote", restartDeps());
    expect(start).toEqual({ status: "refused" });
    await expect(withRestartValues(restartingSubmit(earlier, ["ghanaCardNumber"]), "remote", restartViewerOf(staff.colleague), "req-colleague", restartDeps())).rejects.toMatchObject({
      code: "FORBIDDEN",
      userMessage: restartMessages.notIssuer,
    });
    const callsBefore = service.calls.length;
    const refused = await remoteActionAs(staff.colleague)(restartingSubmit(earlier, ["ghanaCardNumber", "phoneNumber", "referenceId"]));
    expect(refused).toMatchObject({ ok: false, code: "FORBIDDEN", formError: restartMessages.notIssuer });
    expect(service.calls).toHaveLength(callsBefore);

    const audit = await auditOf(earlier);
    expect(audit.map((event) => [event.action, event.actor_user_id, event.details.use])).toEqual([
      ["token.restart_values_refused", staff.colleague.userId, "form"],
      ["token.restart_values_refused", staff.colleague.userId, "issue"],
      ["token.restart_values_refused", staff.colleague.userId, "issue"],
    ]);
    // Another branch does not even learn that the token exists.
    expect(await startRestartForm(restartViewerOf(staff.accra), earlier, "remote", restartDeps())).toBeNull();
  });

  it("gives the issuer the non-personal values and masks only, audited with the field names and no value", async () => {
    const details = customer();
    const earlier = await expiredTokenOf(details);
    const start = await startRestartForm(restartViewerOf(staff.issuer), earlier, "remote", restartDeps());
    if (start?.status !== "ready") throw new Error(`expected a ready start, got ${JSON.stringify(start)}`);
    const { prefill } = start;
    expect(prefill.values).toMatchObject({ idType: "GHANA_CARD", purpose: "KYC refresh", sendSms: true, ghanaCardNumber: "", phoneNumber: "", email: "", referenceId: "" });
    expect(prefill.carried).toEqual({
      ghanaCardNumber: `GHA-•••••${details.ghanaCardNumber.slice(10, 13)}-${details.ghanaCardNumber.slice(14)}`,
      phoneNumber: `024 ••• ${details.phoneNumber.slice(-4)}`,
      email: "k•••@example.com",
      // The reference as every list shows it: its run of digits masked like a phone number.
      referenceId: `ACC-${details.referenceId.slice(4, 7)} ••• ${details.referenceId.slice(-4)}`,
    });
    const shown = JSON.stringify(start);
    for (const secret of secretsOf(details)) expect(shown, `the form page is given ${secret}`).not.toContain(secret);

    const [event] = await auditOf(earlier);
    expect(event).toMatchObject({ action: "token.restart_values_used", actor_user_id: staff.issuer.userId, details: { use: "form" } });
    expect(event!.details.fields).toEqual(expect.arrayContaining(["ghanaCardNumber", "phoneNumber", "email", "referenceId"]));
    for (const secret of secretsOf(details)) expect(JSON.stringify(event)).not.toContain(secret);
  });

  it("issues the issuer's new token with the earlier details filled in on the server, once for a double submit, each use audited", async () => {
    const details = customer();
    const earlier = await expiredTokenOf(details);
    const action = remoteActionAs(staff.issuer);
    const callsBefore = service.calls.length;
    // The teller kept the ID number and e-mail and typed a new phone; the reference follows it.
    const submit = restartingSubmit(earlier, ["ghanaCardNumber", "email"], { phoneNumber: "0201112233", referenceId: "0201112233" });

    const [first, second] = await Promise.all([action(submit), action(submit)]);
    if (!first.ok || first.data.status !== "issued") throw new Error(`expected issued, got ${JSON.stringify(first)}`);
    if (!second.ok || second.data.status !== "issued") throw new Error(`expected issued, got ${JSON.stringify(second)}`);
    expect(second.data.tokenRequestId).toBe(first.data.tokenRequestId);
    expect(service.calls.slice(callsBefore)).toEqual([{ idNumber: details.ghanaCardNumber, phone: "0201112233" }]);

    const [row] = await db.select().from(tokenRequests).where(eq(tokenRequests.id, first.data.tokenRequestId));
    expect(decryptField(row!.idNumberEncrypted!, `token_requests.id_number:${row!.id}`, keys)).toBe(details.ghanaCardNumber);
    expect(decryptField(row!.emailEncrypted!, `token_requests.email:${row!.id}`, keys)).toBe(details.email);
    expect(decryptField(row!.phoneNumberEncrypted!, `token_requests.phone_number:${row!.id}`, keys)).toBe("0201112233");

    const uses = (await auditOf(earlier)).filter((event) => event.details.use === "issue");
    expect(uses).toHaveLength(2);
    for (const use of uses) {
      expect(use).toMatchObject({ action: "token.restart_values_used", actor_user_id: staff.issuer.userId, details: { use: "issue", fields: ["ghanaCardNumber", "email"] } });
      expect(use.request_id).toMatch(/^req-/);
      for (const secret of secretsOf(details)) expect(JSON.stringify(use)).not.toContain(secret);
    }
  });

  it("checks a kept field like a typed one, and names the fields an erased token no longer holds", async () => {
    const details = customer();
    const earlier = await expiredTokenOf(details);
    const action = remoteActionAs(staff.issuer);
    // The teller left consent unticked: the parse after the merge names it, and only it.
    const unconsented = await action(restartingSubmit(earlier, ["ghanaCardNumber", "phoneNumber", "referenceId"], { consentAttested: false }));
    expect(unconsented).toMatchObject({ ok: false, code: "VALIDATION" });
    expect(Object.keys(unconsented.ok ? {} : unconsented.fieldErrors)).toEqual(["consentAttested"]);

    await db.update(tokenRequests).set({ idNumberEncrypted: null, identityErasedAt: new Date() }).where(eq(tokenRequests.id, earlier));
    const erased = await action(restartingSubmit(earlier, ["ghanaCardNumber", "phoneNumber"]));
    expect(erased).toMatchObject({
      ok: false,
      code: "VALIDATION",
      fieldErrors: { ghanaCardNumber: [restartMessages.noLongerAvailable], phoneNumber: [restartMessages.noLongerAvailable] },
    });
    expect(await startRestartForm(restartViewerOf(staff.issuer), earlier, "remote", restartDeps())).toBeNull();
  });

  it("starts from an attempt of unknown outcome, but never from an open token or from a token of the other kind", async () => {
    const details = customer();
    service.failNext(new AppError("UPSTREAM_TIMEOUT", "scripted: no answer"));
    const lost = await issueRemoteToken(remoteSubmission({ ...details, purpose: "KYC refresh" }), issuerFromStaff(staff.issuer), "req-lost", issueDeps()).catch((error: unknown) => error);
    service.failNext(undefined);
    expect(lost).toBeInstanceOf(AppError);
    const lostId = (lost as AppError).subjectId!;
    const start = await startRestartForm(restartViewerOf(staff.issuer), lostId, "remote", restartDeps());
    expect(start?.status).toBe("ready");
    expect(await startRestartForm(restartViewerOf(staff.issuer), lostId, "fingerprint", restartDeps())).toBeNull();

    const open = await issueRemoteToken(remoteSubmission({ ...customer(), purpose: "KYC refresh" }), issuerFromStaff(staff.issuer), "req-open", issueDeps());
    if (open.status !== "issued") throw new Error("expected issued");
    expect(await startRestartForm(restartViewerOf(staff.issuer), open.tokenRequestId, "remote", restartDeps())).toBeNull();
    await expect(withRestartValues(restartingSubmit(open.tokenRequestId, ["ghanaCardNumber"]), "remote", restartViewerOf(staff.issuer), "req", restartDeps())).rejects.toMatchObject({
      code: "VALIDATION",
      fieldErrors: { ghanaCardNumber: [restartMessages.noLongerAvailable] },
    });
  });

  it("reads nothing for a submit that kept no field", async () => {
    const earlier = await expiredTokenOf(customer());
    const before = (await auditOf(earlier)).length;
    const input = await withRestartValues(restartingSubmit(earlier, [], { ghanaCardNumber: "GHA-123456789-0" }), "remote", restartViewerOf(staff.colleague), "req", restartDeps());
    expect(input).toMatchObject({ ghanaCardNumber: "GHA-123456789-0" });
    expect(input).not.toHaveProperty("restartFrom");
    expect(await auditOf(earlier)).toHaveLength(before);
  });
}

forEachDatabase("restart values", (driver) => defineRestartTests(() => openScratchDatabase({ driver, name: "restart" })));
