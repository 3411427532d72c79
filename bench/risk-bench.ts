/**
 * `npm run bench:risk` (never part of `npm test`): what the risk rules cost (ADR 0046).
 * Issuing pays only the phone's blind index (an HMAC) and two more index entries; the rules run
 * behind it. So this prints (1) the p95 of the phone index and of one token insert, and (2) tokens
 * written at BENCH_RISK_RATE a second for BENCH_RISK_SECONDS (one in ten repeating an ID number)
 * while the evaluator's loop runs every 2 s: each pass's duration, the largest lag seen, and
 * whether the lag was back to zero one pass after the writing stopped.
 *
 *   npm run bench:risk                                   PGlite
 *   BENCH_DATABASE_URL=postgres://… npm run bench:risk   PostgreSQL
 */
import { randomUUID } from "node:crypto";
import { tokenRequests } from "@/lib/db/schema";
import type { Database } from "@/lib/db/types";
import { computeIdNumberIndex, computePhoneNumberIndex, phoneCallingCodeOf } from "@/lib/pii/blind-index";
import { evaluateChanges, readRiskLag } from "@/lib/risk/evaluator";
import { aBranch, aStaffMember } from "@/test/kit/builders";
import { createScratchPglite, createScratchPostgres, scratchPiiKeys } from "@/test/kit/database";

const rate = Number(process.env.BENCH_RISK_RATE ?? 50);
const seconds = Number(process.env.BENCH_RISK_SECONDS ?? 20);
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
    const insert = async () => {
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
        phoneNumberIndex: computePhoneNumberIndex(phone, keys),
        phoneCallingCode: phoneCallingCodeOf(phone),
      });
      insertTimes.push(performance.now() - started);
    };

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
      const due = Math.floor(((Date.now() - startedAt) / 1_000) * rate);
      while (written < due) await insert();
      await sleep(20);
    }
    writing = false;
    await loop;
    const drainStarted = performance.now();
    await evaluateChanges(db, { owner: "bench" });
    const drainMs = performance.now() - drainStarted;
    const lagAfter = (await readRiskLag(db)).tokenVersionsBehind;
    console.log(`risk rules on ${scratch.label}: ${written} tokens in ${seconds} s (${(written / seconds).toFixed(1)}/s)`);
    console.log(`  issuing: phone blind index p95 ${p95(indexTimes).toFixed(3)} ms; one token insert p95 ${p95(insertTimes).toFixed(2)} ms`);
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
