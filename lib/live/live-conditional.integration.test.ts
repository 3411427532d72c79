import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/types";
import { namedReadsKey } from "@/lib/db/prepared";
import { authUsers, tokenEvents, tokenRequests } from "@/lib/db/schema";
import { aBranch, aStaffMember, aTokenRequest } from "@/test/kit/builders";
import { DRIVER_LABELS, openScratchDatabase, scratchDrivers, type ScratchDatabase } from "@/test/kit/database";
import { defaultFollowPolicy } from "@/lib/tokens/state";
import { getLiveTokenIfChanged } from "./token-detail";
import { listTodayTokensSince } from "./today-list";
import type { LiveViewer, LiveViewSettings } from "./token-summary";
import { pendingLimitMs } from "@/lib/tokens/token-facts";
import { recordViews } from "@/lib/watcher/viewers";

/**
 * Conditional answers of the poll routes (ADR 0026): a 304 only when nothing the viewer sees
 * changed — state, events, result — and a delta holding exactly the changed tokens.
 */

/** Each database the app runs on: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
function defineConditionalTests(label: string, createScratch: () => Promise<ScratchDatabase>): void {
  describe(label, () => {
    let scratch: ScratchDatabase;
    let viewer: LiveViewer;
    let otherViewer: LiveViewer;
    let branchId: string;
    let userId: string;
    const settings: LiveViewSettings = { follow: defaultFollowPolicy, issueTimeoutMs: 30_000, staleAfterMs: 30_000 };

    beforeAll(async () => {
      scratch = await createScratch();
      await moveToANewBranch("CND");
    });

    /** From here on, tokens are made in and listed for a new branch with a teller of its own. */
    async function moveToANewBranch(code: string): Promise<void> {
      const db = scratch.opened.db;
      branchId = (await aBranch(db, { code, name: `Conditional ${code}` })).id;
      userId = (await aStaffMember(db, { role: "teller", branchId, displayName: "Ama Teller" })).userId;
      viewer = { userId, scope: { kind: "branch", branchId } };
      otherViewer = { userId: randomUUID(), scope: { kind: "branch", branchId } };
    }

    afterAll(async () => {
      await scratch?.destroy();
    });

    /** A token attempt of this branch's teller, as the issuing action writes it before the service answers. */
    function attemptRow(id: string, createdAt: Date) {
      return {
        id,
        idempotencyKey: randomUUID(),
        requestFingerprint: `fp-${id}`,
        kind: "fingerprint" as const,
        idType: "GHANA_CARD" as const,
        issuedByUserId: userId,
        branchId,
        createdAt,
        referenceMasked: "REF1",
        idNumberEncrypted: "unused",
        idNumberIndex: `index-${id}`,
        idNumberLast4: "7890",
      };
    }

    async function newToken(issuedAt = new Date(Date.now() - 60_000)): Promise<string> {
      const id = randomUUID();
      await aTokenRequest(scratch.opened.db, {
        ...attemptRow(id, new Date(issuedAt.getTime() - 500)),
        outcome: "issued",
        settledAt: issuedAt,
        token: `T${id.slice(0, 6)}`,
        issuedAt,
        expiresAt: new Date(issuedAt.getTime() + 15 * 60_000),
        nextPollAt: issuedAt,
      });
      await scratch.opened.db.insert(tokenEvents).values({ tokenRequestId: id, type: "issue.issued", at: issuedAt, details: {} });
      return id;
    }

    /** The version of the whole list, as a first poll gets it. */
    async function wholeListVersion(now = new Date()): Promise<string> {
      const answer = await listTodayTokensSince(scratch.opened.db, viewer, settings, null, now);
      if (answer.status !== 200) throw new Error("a first poll gets the whole list");
      return answer.body.version;
    }

    /** A poll naming `version` that must get the changed tokens (this instance remembers the version). */
    async function changedSince(version: string, now: Date) {
      const answer = await listTodayTokensSince(scratch.opened.db, viewer, settings, version, now);
      if (answer.status !== 200 || !("changed" in answer.body)) throw new Error(`expected the changed tokens, got ${answer.status}`);
      return answer.body;
    }

    /** An issuing call that never settled (its process ended): shown as outcome unknown once past the limit. */
    async function newPendingCall(createdAt: Date): Promise<string> {
      const id = randomUUID();
      await aTokenRequest(scratch.opened.db, { ...attemptRow(id, createdAt), outcome: "pending" });
      return id;
    }

    async function tokenAnswer(id: string, tag: string | null, now = new Date(), who = viewer) {
      return getLiveTokenIfChanged(scratch.opened.db, who, id, settings, tag, now);
    }

    describe("GET /api/tokens/[id], conditional", () => {
      it("answers 304 while nothing changed, even after the watcher's bookkeeping and a view were written", async () => {
        const id = await newToken();
        const first = await tokenAnswer(id, null);
        expect(first.status).toBe(200);
        await recordViews(scratch.opened.db, [id], new Date(), 2_000);
        // A poll that learnt nothing: the watcher's bookkeeping and the time of the same answer.
        await scratch.opened.db
          .update(tokenRequests)
          .set({ lastCheckedAt: new Date(), leaseOwner: "w1", pollFailures: 0, lastUpstreamState: "NOT_USED", lastUpstreamStateAt: new Date() })
          .where(eq(tokenRequests.id, id));
        const learntNothing = await tokenAnswer(id, null);
        await scratch.opened.db.update(tokenRequests).set({ lastUpstreamStateAt: new Date(Date.now() + 1_000), nextPollAt: new Date() }).where(eq(tokenRequests.id, id));
        expect(await tokenAnswer(id, learntNothing.etag)).toEqual({ status: 304, etag: learntNothing.etag });
        expect((await tokenAnswer(id, `W/${learntNothing.etag}, "other"`)).status).toBe(304);
      });

      it("answers 200 with the new state when the service's state changed", async () => {
        const id = await newToken();
        const first = await tokenAnswer(id, null);
        const now = new Date();
        await scratch.opened.db.update(tokenRequests).set({ lastUpstreamState: "USED", lastUpstreamStateAt: now, usedSeenAt: now, lastAnswerAt: now }).where(eq(tokenRequests.id, id));
        const next = await tokenAnswer(id, first.etag);
        expect(next.status).toBe(200);
        expect(next.status === 200 && next.body.token.state).toBe("in_progress");
        expect(next.etag).not.toBe(first.etag);
      });

      it("answers 200 when an event was added, with the event", async () => {
        const id = await newToken();
        const first = await tokenAnswer(id, null);
        await scratch.opened.db.insert(tokenEvents).values({ tokenRequestId: id, type: "slip.printed", details: {} });
        const next = await tokenAnswer(id, first.etag);
        expect(next.status === 200 && next.body.token.events.map((event) => event.label)).toEqual(["Token issued by the service", "Verification slip printed"]);
      });

      it("answers 200 when the result arrived", async () => {
        const id = await newToken();
        const first = await tokenAnswer(id, null);
        const now = new Date();
        await scratch.opened.db
          .update(tokenRequests)
          .set({ resultStatus: "SUCCESSFUL", transactionNumber: "TX-1", resultAt: now, lastUpstreamState: "USED", lastUpstreamStateAt: now, usedSeenAt: now, lastAnswerAt: now })
          .where(eq(tokenRequests.id, id));
        const next = await tokenAnswer(id, first.etag);
        expect(next.status === 200 && next.body.token.result).toEqual({ status: "SUCCESSFUL", transactionNumber: "TX-1", error: null });
      });

      it("answers 200 when only a shown column changed, with no new state or event (the reference erased)", async () => {
        const id = await newToken();
        const first = await tokenAnswer(id, null);
        await scratch.opened.db.update(tokenRequests).set({ referenceMasked: null, contactErasedAt: new Date(), contactErasedUnder: "request" }).where(eq(tokenRequests.id, id));
        const next = await tokenAnswer(id, first.etag);
        expect(next.status).toBe(200);
        expect(next.status === 200 && next.body.token.reference).toMatch(/erased/i);
      });

      it("answers 200 when time alone changed the state (the 15 minutes ran out), and differs per viewer", async () => {
        const id = await newToken(new Date(Date.now() - 14 * 60_000));
        const first = await tokenAnswer(id, null);
        const later = await tokenAnswer(id, first.etag, new Date(Date.now() + 2 * 60_000));
        expect(later.status).toBe(200);
        expect((await tokenAnswer(id, first.etag, new Date(), otherViewer)).status).toBe(200);
      });
    });

    describe("GET /api/tokens?scope=today, changes only", () => {
      it("answers 304 for the version held, a delta of exactly the changed and new tokens, and the whole list for an unknown version", async () => {
        const a = await newToken();
        const b = await newToken();
        const first = await listTodayTokensSince(scratch.opened.db, viewer, settings, null);
        if (first.status !== 200 || !("tokens" in first.body)) throw new Error("expected the whole list");
        const version = first.body.version;
        expect(first.body.tokens.map((token) => token.id)).toEqual(expect.arrayContaining([a, b]));

        await recordViews(scratch.opened.db, [a, b], new Date(), 2_000);
        expect((await listTodayTokensSince(scratch.opened.db, viewer, settings, version)).status).toBe(304);

        const now = new Date();
        await scratch.opened.db.update(tokenRequests).set({ lastUpstreamState: "USED", lastUpstreamStateAt: now, usedSeenAt: now, lastAnswerAt: now }).where(eq(tokenRequests.id, a));
        const c = await newToken();
        const delta = await listTodayTokensSince(scratch.opened.db, viewer, settings, version);
        if (delta.status !== 200 || !("changed" in delta.body)) throw new Error("expected a delta");
        expect(delta.body.since).toBe(version);
        expect(delta.body.changed.map((token) => token.id).sort()).toEqual([a, c].sort());
        expect(delta.body.order).toEqual(expect.arrayContaining([a, b, c]));

        const unknown = await listTodayTokensSince(scratch.opened.db, viewer, settings, "not-a-version-we-gave");
        expect(unknown.status === 200 && "tokens" in unknown.body).toBe(true);
      });

      it("answers an unchanged list's 304 from the rows' fingerprint alone, reading no row into the app", async () => {
        await newToken();
        const version = await wholeListVersion();
        const a = await newToken();
        const afterNew = await wholeListVersion();
        expect(afterNew).not.toBe(version);
        await recordViews(scratch.opened.db, [a], new Date(), 2_000);
        await scratch.opened.db
          .update(tokenRequests)
          .set({ lastCheckedAt: new Date(), leaseOwner: "w1", lastAnswerAt: new Date(), lastUpstreamStateAt: new Date() })
          .where(eq(tokenRequests.id, a));
        const recorded = recordingSelects(scratch.opened.db);
        expect((await listTodayTokensSince(recorded.db, viewer, settings, afterNew)).status).toBe(304);
        expect(recorded.selected).toEqual([["createdAt", "id", "entry"], ["fingerprint"]]);
      });

      it("reads the rows again when only a shown column of a listed token changed, with no new state (the reference erased)", async () => {
        const now = new Date();
        const erased = await newToken();
        const version = await wholeListVersion(now);
        expect((await listTodayTokensSince(scratch.opened.db, viewer, settings, version, now)).status).toBe(304);

        await scratch.opened.db.update(tokenRequests).set({ referenceMasked: null, contactErasedAt: now, contactErasedUnder: "request" }).where(eq(tokenRequests.id, erased));
        const delta = await changedSince(version, now);
        expect(delta.changed.map((token) => token.id)).toEqual([erased]);
        expect(delta.changed[0]!.reference).toMatch(/erased/i);
      });

      it("reads the rows again when the service answers after a fault: the notice that it is not answering goes", async () => {
        const now = new Date();
        const faulted = await newToken();
        const faultAt = new Date(now.getTime() - 5_000);
        await scratch.opened.db
          .update(tokenRequests)
          .set({ lastFaultCode: "UPSTREAM_TIMEOUT", lastFaultAt: faultAt, faultSince: faultAt, lastAnswerAt: new Date(now.getTime() - 10_000) })
          .where(eq(tokenRequests.id, faulted));
        const version = await wholeListVersion(now);
        expect((await listTodayTokensSince(scratch.opened.db, viewer, settings, version, now)).status).toBe(304);

        await scratch.opened.db.update(tokenRequests).set({ lastAnswerAt: now, lastUpstreamStateAt: now }).where(eq(tokenRequests.id, faulted));
        const delta = await changedSince(version, now);
        expect(delta.changed.map((token) => [token.id, token.serviceProblem])).toEqual([[faulted, null]]);
      });

      it("reads the rows again when a token changed, a teller was renamed, time ran a token out or a call left pending became shown", async () => {
        // Its own branch: the other tests' tokens reach moments of their own (an expiry) in the
        // minute this test moves through, and would end a 304 this test must see end for its reason.
        await moveToANewBranch("CNT");
        const now = new Date();
        const nearlyExpired = await newToken(new Date(now.getTime() - 14.5 * 60_000));
        let version = await wholeListVersion(now);
        expect((await listTodayTokensSince(scratch.opened.db, viewer, settings, version, now)).status).toBe(304);

        const used = await newToken();
        await scratch.opened.db.update(tokenRequests).set({ lastUpstreamState: "USED", lastUpstreamStateAt: now, usedSeenAt: now, lastAnswerAt: now }).where(eq(tokenRequests.id, used));
        let delta = await changedSince(version, now);
        expect(delta.changed.map((token) => [token.id, token.state])).toContainEqual([used, "in_progress"]);
        version = delta.version;

        await scratch.opened.db.update(authUsers).set({ name: "Ama Teller-Mensah" }).where(eq(authUsers.id, userId));
        delta = await changedSince(version, now);
        expect(delta.changed.length).toBeGreaterThan(0);
        expect(delta.changed.every((token) => token.tellerName === "Ama Teller-Mensah")).toBe(true);
        version = delta.version;

        const halfAMinuteOn = new Date(now.getTime() + 31_000);
        delta = await changedSince(version, halfAMinuteOn);
        expect(delta.changed.map((token) => [token.id, token.state])).toContainEqual([nearlyExpired, "expired"]);

        const leftPending = await newPendingCall(now);
        version = await wholeListVersion(halfAMinuteOn);
        expect((await listTodayTokensSince(scratch.opened.db, viewer, settings, version, halfAMinuteOn)).status).toBe(304);
        const pastThePendingLimit = new Date(now.getTime() + pendingLimitMs(settings.issueTimeoutMs) + 2_000);
        delta = await changedSince(version, pastThePendingLimit);
        expect(delta.changed.map((token) => [token.id, token.state])).toContainEqual([leftPending, "outcome_unknown"]);
      });
    });
  });
}

for (const driver of scratchDrivers()) defineConditionalTests(DRIVER_LABELS[driver], () => openScratchDatabase({ driver, name: "conditional" }));

/** The database with every `select` noted by the keys of what it selects: which statements a call made. */
function recordingSelects(db: Database, selected: string[][] = []): { db: Database; selected: string[][] } {
  const recording = new Proxy(db, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      // On PGlite the hot statements are built on the database as a named-statement client sees it
      // (lib/db/prepared.ts): their selects are recorded there too.
      if (key === namedReadsKey && typeof value === "function") return (name: string) => recordingSelects(value(name) as Database, selected).db;
      if (key !== "select" || typeof value !== "function") return value;
      return (fields?: Record<string, unknown>) => {
        selected.push(Object.keys(fields ?? {}));
        return value.call(target, fields);
      };
    },
  });
  return { db: recording, selected };
}
