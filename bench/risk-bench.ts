/**
 * `npm run bench:risk` (never part of `npm test`): what the risk rules cost (ADR 0046).
 * Issuing pays only the phone's blind index (an HMAC) and two more index entries; the rules run
 * behind it. So this prints (1) the p95 of the phone index and of one token insert, and (2) tokens
 * written at BENCH_RISK_RATE a second for BENCH_RISK_SECONDS (one in ten repeating an ID number)
 * while the evaluator's loop runs every 2 s: each pass's duration, the largest lag seen, and
 * whether the lag was back to zero one pass after the writing stopped. Before that, what the rules
 * add to issuing: the insert's p95 at the same rate (a) without the rules' columns and indexes (as
 * before ADR 0046: the two indexes dropped from the scratch database), (b) with them and no
 * evaluator, and then (c) with the evaluator's loop running beside the writes (the run above).
 *
 *   npm run bench:risk                                   PGlite
 *   BENCH_DATABASE_URL=postgres://… npm run bench:risk   PostgreSQL
 */
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { tokenRequests } from "@/lib/db/schema";
import type { Database } from "@/lib/db/types";
import { computeIdNumberIndex, computePhoneNumberIndex, phoneCallingCodeOf } from "@/lib/pii/blind-index";
import { evaluateChanges, readRiskLag } from "@/lib/risk/evaluator";
import { aBranch, aStaffMember } from "@/test/kit/builders";
import { createScratchPglite, createScratchPostgres, scratchPiiKeys } from "@/test/kit/database";

const rate = Number(process.env.BENCH_RISK_RATE ?? 50);
const seconds = Number(process.env.BENCH_RISK_SECONDS ?? 20);
/** How long each of the two comparison phases before the main run writes. */
const phaseSeconds = Number(process.env.BENCH_RISK_PHASE_SECONDS ?? 10);
const keys = scratchPiiKeys();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.max(0, Math.ceil(values.length * 0.95) - 1)] ?? 0;

async function main() {
  const scratch = process.env.BENCH_DATABASE_URL ? await createScratchPostgres(process.env.BENCH_DATABASE_URL, "veridesk_risk_bench") : await createScratchPglite("veridesk-risk-bench-");
  const db = scratch.db as Database;
  try {
    const branch = await aBranch(db, { name: "Risk bench" });
    const teller = await aStaffMember(db, { role: "teller", branchId: branch.id });
    await evaluateChanges(db, { owner: "bench" });

    const indexTimes: number[] = [];
    for (let n = 0; n < 2_000; n += 1) {
      const started = performance.now();
      computePhoneNumberIndex(`024${String(1_000_000 + n)}`, keys);
      phoneCallingCodeOf(`024${String(1_000_000 + n)}`);
      indexTimes.push(performance.now() - started);
    }
    let written = 0;
    const insertTimes: number[] = [];
    const insert = async (withRuleColumns = true) => {
      const n = written;
      written += 1;
      const idNumber = `GHA-${String(700_000_000 + (n % 10 === 0 ? n - 10 : n)).padStart(9, "0")}-1`;
      const phone = `024${String(1_000_000 + n)}`;
      const started = performance.now();
      await db.insert(tokenRequests).values({
        id: randomUUID(),
        idempotencyKey: randomUUID(),
        requestFingerprint: "bench",
        kind: "remote",
        idType: "GHANA_CARD",
        issuedByUserId: teller.userId,
        branchId: branch.id,
        outcome: "issued",
        idNumberEncrypted: "bench",
        idNumberIndex: computeIdNumberIndex(idNumber, keys),
        idNumberLast4: "0001",
        phoneNumberEncrypted: "bench",
        ...(withRuleColumns ? { phoneNumberIndex: computePhoneNumberIndex(phone, keys), phoneCallingCode: phoneCallingCodeOf(phone) } : {}),
      });
      insertTimes.push(performance.now() - started);
    };
    /** Writes at `rate` a second for `forSeconds`; answers the inserts' p95. */
    const writePhase = async (forSeconds: number, withRuleColumns: boolean) => {
      insertTimes.length = 0;
      const phaseStart = Date.now();
      const before = written;
      while (Date.now() - phaseStart < forSeconds * 1_000) {
        const due = before + Math.floor(((Date.now() - phaseStart) / 1_000) * rate);
        while (written < due) await insert(withRuleColumns);
        await sleep(20);
      }
      return p95(insertTimes);
    };

    // A warm-up the first phase would otherwise pay alone (the JIT, the first pages of each index).
    await writePhase(3, true);
    // (a) As before the rules: no phone index column values, neither of the rules' two indexes.
    await db.execute(sql`drop index token_requests_phone_number_index_idx`);
    await db.execute(sql`drop index token_requests_shown_version_idx`);
    const withoutRules = await writePhase(phaseSeconds, false);
    await db.execute(sql`create index token_requests_phone_number_index_idx on token_requests using btree (phone_number_index, created_at)`);
    await db.execute(sql`create index token_requests_shown_version_idx on token_requests using btree (shown_version)`);
    // (b) With them, the evaluator idle; what (a) and (b) wrote is history to it.
    const withColumns = await writePhase(phaseSeconds, true);
    await evaluateChanges(db, { owner: "bench" });
    insertTimes.length = 0;
    const mainStart = written;

    let writing = true;
    let maxLag = 0;
    const passTimes: number[] = [];
    const loop = (async () => {
      while (writing) {
        await sleep(2_000);
        maxLag = Math.max(maxLag, (await readRiskLag(db)).tokenVersionsBehind);
        const started = performance.now();
        await evaluateChanges(db, { owner: "bench" });
        passTimes.push(performance.now() - started);
      }
    })();
    const startedAt = Date.now();
    while (Date.now() - startedAt < seconds * 1_000) {
      const due = mainStart + Math.floor(((Date.now() - startedAt) / 1_000) * rate);
      while (written < due) await insert();
      await sleep(20);
    }
    writing = false;
    await loop;
    const drainStarted = performance.now();
    await evaluateChanges(db, { owner: "bench" });
    const drainMs = performance.now() - drainStarted;
    const lagAfter = (await readRiskLag(db)).tokenVersionsBehind;
    const withEvaluator = p95(insertTimes);
    console.log(`risk rules on ${scratch.label}: ${written - mainStart} tokens in ${seconds} s (${((written - mainStart) / seconds).toFixed(1)}/s)`);
    console.log(`  issuing: phone blind index p95 ${p95(indexTimes).toFixed(3)} ms`);
    console.log(
      `  one token insert p95 at ${rate}/s: ${withoutRules.toFixed(2)} ms without the rules' columns and indexes; ${withColumns.toFixed(2)} ms with them; ${withEvaluator.toFixed(2)} ms with the evaluator running too`,
    );
    console.log(`  added to issuing at p95: ${(withEvaluator - withoutRules).toFixed(2)} ms (budget 5 ms)`);
    console.log(`  evaluator: ${passTimes.length} passes, p95 ${p95(passTimes).toFixed(0)} ms, largest lag ${maxLag} token versions; last pass ${drainMs.toFixed(0)} ms; lag after it ${lagAfter}`);
    console.log(`  kept up: ${lagAfter === 0 && p95(passTimes) < 2_000 ? "yes" : "no"}`);
  } finally {
    await scratch.destroy();
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
