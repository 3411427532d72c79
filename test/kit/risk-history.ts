import { randomUUID } from "node:crypto";
import type { DbExecutor } from "@/lib/db/types";
import { recordAuditEvent } from "@/lib/audit";
import { tokenRequests } from "@/lib/db/schema";
import { computeIdNumberIndex, computePhoneNumberIndex, phoneCallingCodeOf } from "@/lib/pii/blind-index";
import type { PiiKeys } from "@/lib/pii/keys";
import { maskPhoneNumber } from "@/lib/pii/mask";
import { reviewAuditActions } from "@/lib/review/audit-actions";
import { aBranch, aStaffMember } from "./builders";

/**
 * A fixed two weeks of token history (2026-03-02 to 2026-03-16, UTC) for the risk rules'
 * backtest: quiet background traffic (one token per customer, one phone per customer), a planted
 * pattern for each evaluated rule and near-misses just under each threshold. `expected` says, per
 * rule, exactly which subjects and tokens a backtest with the shipped thresholds must flag.
 *
 * Audit events cannot be dated (the database sets `at`), so the ID-access part is written now by
 * `seedRiskAccessHistory`, with tokens of its own from yesterday.
 */

export const historyStart = new Date("2026-03-02T00:00:00.000Z");
export const historyEnd = new Date("2026-03-16T00:00:00.000Z");

const hour = 3_600_000;
const minute = 60_000;
const day = 24 * hour;

type Outcome = "successful" | "failed" | "expired";
type TokenSpec = {
  name: string;
  at: number;
  branch: "A" | "B" | "C";
  kind: "fingerprint" | "remote";
  idNumber: string;
  phone?: string;
  idType?: "GHANA_CARD" | "VOTER";
  /** The token's end, 30 min after issue (the background ends successful). */
  outcome?: Outcome;
  /** Another teller of the branch (rule 7's tellers). */
  teller?: "T7" | "T7b" | "T7c";
};

export type RiskHistory = {
  branchIds: Record<"A" | "B" | "C", string>;
  tellerIds: Record<"A" | "B" | "C" | "T7" | "T7b" | "T7c", string>;
  /** Token ids by the fixture's name for them. */
  tokens: Record<string, string>;
  idIndexOf: (idNumber: string) => string;
  phoneIndexOf: (phone: string) => string;
  /** Per rule key: the subjects (blind indexes) and token names it must flag. */
  expected: Record<string, { subjects: string[]; tokenNames: string[] }>;
  tokenCount: number;
};

const id = (n: number) => `GHA-${String(700_000_000 + n).padStart(9, "0")}-${n % 10}`;
const phone = (n: number) => `024${String(1_000_000 + n).padStart(7, "0")}`;

export async function seedRiskHistory(db: DbExecutor, keys: PiiKeys): Promise<RiskHistory> {
  const branchIds = { A: "", B: "", C: "" } as Record<"A" | "B" | "C", string>;
  const tellerIds = { A: "", B: "", C: "", T7: "", T7b: "", T7c: "" } as Record<"A" | "B" | "C" | "T7" | "T7b" | "T7c", string>;
  for (const name of ["A", "B", "C"] as const) {
    branchIds[name] = (await aBranch(db, { name: `Risk history ${name}` })).id;
    tellerIds[name] = (await aStaffMember(db, { role: "teller", branchId: branchIds[name] })).userId;
  }
  for (const name of ["T7", "T7b", "T7c"] as const) tellerIds[name] = (await aStaffMember(db, { role: "teller", branchId: branchIds.C })).userId;
  const t0 = historyStart.getTime();
  const specs: TokenSpec[] = [];
  // Background: 120 customers, one token each, a Ghana phone each, spread over the two weeks,
  // all inside opening hours (09:00–15:20), all successful.
  for (let n = 0; n < 120; n += 1) {
    const branch = (["A", "B", "C"] as const)[n % 3]!;
    const kind = n % 2 === 0 ? "remote" : "fingerprint";
    specs.push({ name: `bg${n}`, at: t0 + (n % 13) * day + 9 * hour + (n % 7) * hour + (n % 3) * 10 * minute, branch, kind, idNumber: id(1000 + n), phone: kind === "remote" ? phone(1000 + n) : undefined });
  }
  // Rule 1: three tokens for one ID in 6 h at one branch; two branches in 5 h (both fingerprint:
  // rule 9 stays quiet because 5 h > 2 h). Near-misses: 3 tokens over 24 h 1 min, 2 tokens 1 h
  // apart at one branch, 2 branches 25 h apart.
  const d2 = t0 + 2 * day + 9 * hour;
  specs.push({ name: "r1a1", at: d2, branch: "A", kind: "fingerprint", idNumber: id(1) });
  specs.push({ name: "r1a2", at: d2 + 3 * hour, branch: "A", kind: "fingerprint", idNumber: id(1) });
  specs.push({ name: "r1a3", at: d2 + 6 * hour, branch: "A", kind: "fingerprint", idNumber: id(1) });
  const d4 = t0 + 4 * day + 8 * hour;
  specs.push({ name: "r1b1", at: d4, branch: "A", kind: "fingerprint", idNumber: id(2) });
  specs.push({ name: "r1b2", at: d4 + 5 * hour, branch: "B", kind: "fingerprint", idNumber: id(2) });
  const d6 = t0 + 6 * day + 8 * hour;
  specs.push({ name: "n1a1", at: d6, branch: "A", kind: "fingerprint", idNumber: id(3) });
  specs.push({ name: "n1a2", at: d6 + 8 * hour, branch: "A", kind: "fingerprint", idNumber: id(3) });
  specs.push({ name: "n1a3", at: d6 + 24 * hour + minute, branch: "A", kind: "fingerprint", idNumber: id(3) });
  specs.push({ name: "n1b1", at: d6 + 2 * hour, branch: "C", kind: "fingerprint", idNumber: id(4) });
  specs.push({ name: "n1b2", at: d6 + 3 * hour, branch: "C", kind: "fingerprint", idNumber: id(4) });
  specs.push({ name: "n1c1", at: d6 + 4 * hour, branch: "A", kind: "fingerprint", idNumber: id(5) });
  specs.push({ name: "n1c2", at: d6 + 29 * hour, branch: "B", kind: "fingerprint", idNumber: id(5) });
  // Rule 3: one phone on remote tokens for 3 ID numbers within 6 days. Near-miss: 3 ID numbers on
  // one phone, but the third 7 days 1 min after the first (only 2 in any 7 days).
  const d1 = t0 + 1 * day + 10 * hour;
  specs.push({ name: "r3a", at: d1, branch: "A", kind: "remote", idNumber: id(10), phone: phone(1) });
  specs.push({ name: "r3b", at: d1 + 3 * day, branch: "B", kind: "remote", idNumber: id(11), phone: phone(1) });
  specs.push({ name: "r3c", at: d1 + 6 * day, branch: "A", kind: "remote", idNumber: id(12), phone: phone(1) });
  specs.push({ name: "n3a", at: d1, branch: "C", kind: "remote", idNumber: id(13), phone: phone(2) });
  specs.push({ name: "n3b", at: d1 + 2 * day, branch: "C", kind: "remote", idNumber: id(14), phone: phone(2) });
  specs.push({ name: "n3c", at: d1 + 7 * day + minute, branch: "C", kind: "remote", idNumber: id(15), phone: phone(2) });
  // Rule 5: a remote link to a UK number. Near-miss: a Ghana number written in international form.
  specs.push({ name: "r5", at: t0 + 8 * day + 11 * hour, branch: "B", kind: "remote", idNumber: id(20), phone: "+447700900123" });
  specs.push({ name: "n5", at: t0 + 8 * day + 12 * hour, branch: "B", kind: "remote", idNumber: id(21), phone: "+233241234599" });
  // Rule 9: fingerprint tokens for one ID at two branches 90 min apart (rule 1 sees 2 branches
  // too). Near-misses: 2 h 1 min apart (rule 1 only); a fingerprint and a remote token 30 min
  // apart (rule 1 only).
  const d10 = t0 + 10 * day + 9 * hour;
  specs.push({ name: "r9a", at: d10, branch: "A", kind: "fingerprint", idNumber: id(30) });
  specs.push({ name: "r9b", at: d10 + 90 * minute, branch: "C", kind: "fingerprint", idNumber: id(30) });
  specs.push({ name: "n9a1", at: d10 + hour, branch: "B", kind: "fingerprint", idNumber: id(31) });
  specs.push({ name: "n9a2", at: d10 + 3 * hour + minute, branch: "C", kind: "fingerprint", idNumber: id(31) });
  specs.push({ name: "n9b1", at: d10 + 2 * hour, branch: "A", kind: "fingerprint", idNumber: id(32) });
  specs.push({ name: "n9b2", at: d10 + 2 * hour + 30 * minute, branch: "B", kind: "remote", idNumber: id(32), phone: phone(32) });
  // Rule 2: a failure and an expiry, then a success at another branch within 72 h (3 tokens in
  // 5 h: rule 1 too). Near-misses: one failure then a success; two failures, the success 72 h 1 min after the second.
  const d3 = t0 + 3 * day + 9 * hour;
  specs.push({ name: "r2a", at: d3, branch: "A", kind: "fingerprint", idNumber: id(40), outcome: "failed" });
  specs.push({ name: "r2b", at: d3 + hour, branch: "A", kind: "fingerprint", idNumber: id(40), outcome: "expired" });
  specs.push({ name: "r2c", at: d3 + 5 * hour, branch: "B", kind: "fingerprint", idNumber: id(40), outcome: "successful" });
  specs.push({ name: "n2a1", at: d3, branch: "C", kind: "fingerprint", idNumber: id(41), outcome: "failed" });
  specs.push({ name: "n2a2", at: d3 + 2 * hour, branch: "C", kind: "fingerprint", idNumber: id(41), outcome: "successful" });
  specs.push({ name: "n2b1", at: d3, branch: "C", kind: "fingerprint", idNumber: id(42), outcome: "failed" });
  specs.push({ name: "n2b2", at: d3 + hour, branch: "C", kind: "fingerprint", idNumber: id(42), outcome: "failed" });
  specs.push({ name: "n2b3", at: d3 + 73 * hour + minute, branch: "C", kind: "fingerprint", idNumber: id(42), outcome: "successful" });
  // Rule 4: an ID verified on one phone, then a link to a new phone. Near-misses: the same phone
  // again; a new phone for an ID that never verified.
  const d5 = t0 + 5 * day + 10 * hour;
  specs.push({ name: "r4a", at: d5, branch: "A", kind: "remote", idNumber: id(50), phone: phone(50) });
  specs.push({ name: "r4b", at: d5 + 4 * day, branch: "A", kind: "remote", idNumber: id(50), phone: phone(150) });
  specs.push({ name: "n4a1", at: d5, branch: "B", kind: "remote", idNumber: id(51), phone: phone(51) });
  specs.push({ name: "n4a2", at: d5 + 4 * day, branch: "B", kind: "remote", idNumber: id(51), phone: phone(51) });
  specs.push({ name: "n4b1", at: d5, branch: "B", kind: "remote", idNumber: id(52), phone: phone(52), outcome: "failed" });
  specs.push({ name: "n4b2", at: d5 + 4 * day, branch: "B", kind: "remote", idNumber: id(52), phone: phone(152) });
  // Rule 6: a Ghana Card link fails (30 min after issue), and 1 h after that failure a voter-ID
  // link goes to the same phone. Near-miss: the voter-ID link 2 h 1 min after the failure.
  const d11 = t0 + 11 * day + 9 * hour;
  specs.push({ name: "r6a", at: d11, branch: "A", kind: "remote", idNumber: id(60), phone: phone(60), outcome: "failed" });
  specs.push({ name: "r6b", at: d11 + 90 * minute, branch: "A", kind: "remote", idNumber: "7000000061", idType: "VOTER", phone: phone(60) });
  specs.push({ name: "n6a", at: d11, branch: "B", kind: "remote", idNumber: id(62), phone: phone(62), outcome: "failed" });
  specs.push({ name: "n6b", at: d11 + 151 * minute, branch: "B", kind: "remote", idNumber: "7000000063", idType: "VOTER", phone: phone(62) });
  // Rule 7: teller T7, 10 ID numbers in 5 h, 8 failed (80 %); near-misses T7b (10, 7 failed) and
  // T7c (9, all failed). Out of hours: one token at 06:30 by branch B's teller; near-miss 08:00.
  const d12 = t0 + 12 * day + 9 * hour;
  for (let n = 0; n < 10; n += 1) {
    specs.push({ name: `r7t${n}`, at: d12 + n * 30 * minute, branch: "C", kind: "fingerprint", idNumber: id(100 + n), teller: "T7", outcome: n < 8 ? "failed" : "successful" });
    specs.push({ name: `n7b${n}`, at: d12 + n * 30 * minute, branch: "C", kind: "fingerprint", idNumber: id(110 + n), teller: "T7b", outcome: n < 7 ? "failed" : "successful" });
    if (n < 9) specs.push({ name: `n7c${n}`, at: d12 + n * 30 * minute, branch: "C", kind: "fingerprint", idNumber: id(120 + n), teller: "T7c", outcome: "failed" });
  }
  specs.push({ name: "r7h", at: t0 + 12 * day + 6 * hour + 30 * minute, branch: "B", kind: "fingerprint", idNumber: id(130) });
  specs.push({ name: "n7h", at: t0 + 12 * day + 8 * hour, branch: "B", kind: "fingerprint", idNumber: id(131) });

  const tokens: Record<string, string> = {};
  const rows = specs.map((spec) => {
    const rowId = randomUUID();
    tokens[spec.name] = rowId;
    const canonical = spec.idNumber.replace(/[^A-Z0-9]/g, "");
    const outcome = spec.outcome ?? "successful";
    const resultAt = new Date(spec.at + 30 * minute);
    return {
      id: rowId,
      idempotencyKey: randomUUID(),
      requestFingerprint: `fp-${rowId}`,
      kind: spec.kind,
      idType: spec.idType ?? ("GHANA_CARD" as const),
      liveState: outcome,
      resultStatus: outcome === "successful" ? ("SUCCESSFUL" as const) : outcome === "failed" ? ("FAILED" as const) : null,
      resultAt: outcome === "expired" ? null : resultAt,
      finishedAt: resultAt,
      issuedAt: new Date(spec.at),
      issuedByUserId: tellerIds[spec.teller ?? spec.branch],
      branchId: branchIds[spec.branch],
      createdAt: new Date(spec.at),
      outcome: "issued" as const,
      idNumberEncrypted: "not-read-by-the-rules",
      idNumberIndex: computeIdNumberIndex(spec.idNumber, keys),
      idNumberLast4: canonical.slice(-4),
      phoneNumberMasked: spec.phone ? maskPhoneNumber(spec.phone) : null,
      phoneNumberEncrypted: spec.phone ? "not-read-by-the-rules" : null,
      phoneNumberIndex: spec.phone ? computePhoneNumberIndex(spec.phone, keys) : null,
      phoneCallingCode: spec.phone ? phoneCallingCodeOf(spec.phone) : null,
    };
  });
  for (let start = 0; start < rows.length; start += 50) await db.insert(tokenRequests).values(rows.slice(start, start + 50));

  const idIndexOf = (idNumber: string) => computeIdNumberIndex(idNumber, keys);
  const phoneIndexOf = (value: string) => computePhoneNumberIndex(value, keys);
  return {
    branchIds,
    tellerIds,
    tokens,
    idIndexOf,
    phoneIndexOf,
    tokenCount: rows.length,
    expected: {
      // id(30), id(31) and id(32), the near-misses of rule 9, are two branches within 24 h for rule 1.
      same_id_velocity: {
        subjects: [id(1), id(2), id(30), id(31), id(32), id(40)].map(idIndexOf),
        tokenNames: ["r1a1", "r1a2", "r1a3", "r1b1", "r1b2", "r9a", "r9b", "n9a1", "n9a2", "n9b1", "n9b2", "r2a", "r2b", "r2c"],
      },
      mule_phone: { subjects: [phoneIndexOf(phone(1))], tokenNames: ["r3a", "r3b", "r3c"] },
      phone_abroad: { subjects: [phoneIndexOf("+447700900123")], tokenNames: ["r5"] },
      fingerprint_two_branches: { subjects: [idIndexOf(id(30))], tokenNames: ["r9a", "r9b"] },
      retry_then_success: { subjects: [idIndexOf(id(40))], tokenNames: ["r2a", "r2b", "r2c"] },
      new_phone_after_verified: { subjects: [idIndexOf(id(50))], tokenNames: ["r4a", "r4b"] },
      card_fail_then_other_id: { subjects: [idIndexOf(id(60))], tokenNames: ["r6a", "r6b"] },
      teller_failure_rate: { subjects: [tellerIds.T7, tellerIds.B].sort(), tokenNames: [...Array.from({ length: 10 }, (_, n) => `r7t${n}`), "r7h"] },
    },
  };
}

/**
 * The ID-access part (rule 8), written now: supervisor `heavy` reveals 21 ID numbers of tokens of
 * their own branch (over 20), `steady` exactly 20 (the near-miss); `stray` (branch C) reveals one
 * ID number whose tokens were all issued at branch A; `local` reveals one of their own branch's.
 */
export async function seedRiskAccessHistory(db: DbExecutor, keys: PiiKeys, history: RiskHistory) {
  const staff: Record<"heavy" | "steady" | "stray" | "local", { userId: string; username: string }> = {} as never;
  for (const [name, branch] of [["heavy", "A"], ["steady", "A"], ["stray", "C"], ["local", "A"]] as const) {
    const member = await aStaffMember(db, { role: "supervisor", branchId: history.branchIds[branch] });
    staff[name] = { userId: member.userId, username: member.username };
  }
  const yesterday = new Date(Date.now() - day);
  const recentId = randomUUID();
  await db.insert(tokenRequests).values({
    id: recentId,
    idempotencyKey: randomUUID(),
    requestFingerprint: `fp-${recentId}`,
    kind: "fingerprint",
    idType: "GHANA_CARD",
    issuedByUserId: history.tellerIds.A,
    branchId: history.branchIds.A,
    createdAt: yesterday,
    outcome: "issued",
    idNumberEncrypted: "not-read-by-the-rules",
    idNumberIndex: computeIdNumberIndex(id(90), keys),
    idNumberLast4: "0090",
  });
  const reveal = (who: { userId: string; username: string }) =>
    recordAuditEvent(db, { action: reviewAuditActions.idRevealed, actor: who, subject: { type: "token_request", id: recentId }, branchId: history.branchIds.A, details: { reason: "fixture" } });
  for (let n = 0; n < 21; n += 1) await reveal(staff.heavy);
  for (let n = 0; n < 20; n += 1) await reveal(staff.steady);
  await reveal(staff.stray);
  await reveal(staff.local);
  return { staff, recentTokenId: recentId };
}
