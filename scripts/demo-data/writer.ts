import "server-only";
import { createHash } from "node:crypto";
import { eq, inArray, sql } from "drizzle-orm";
import type { Database } from "@/lib/db/types";
import { TOKEN_LIFETIME_MS } from "@/lib/tokens/lifetime";
import { authUsers, branches, staffProfiles, tokenRequests } from "@/lib/db/schema";
import { computeIdNumberIndex, computeReferenceIndex, computeRequestFingerprint, encryptField, lastFourOf, maskPhoneNumber, maskFreeText, type PiiKeys } from "@/lib/pii";
import type { DemoPlan, DemoToken } from "./plan";

/**
 * Writes a demo plan (plan.ts) into a database, fast: rows go in batches as one JSON
 * parameter each (`json_populate_recordset`), which PGlite and PostgreSQL both take in a single
 * round trip, with no 65 535-parameter ceiling. ID numbers are encrypted and indexed with the
 * given keys exactly as the issuing code does, so search, reveal and export work on them.
 *
 * Demo rows carry `request_id = 'demo:<seed>'`: a second run finds them and writes nothing.
 */

export type DemoWriteOptions = {
  keys: PiiKeys;
  /** Token events (history) too: the demo seed wants them, the benchmark does not. */
  withEvents?: boolean;
  batchSize?: number;
  /**
   * Existing accounts to stand in for planned tellers (teller key → username), so the demo
   * tellers of the staff seed have tokens of their own.
   */
  existingTellers?: Record<string, string>;
  onProgress?: (written: number, total: number) => void;
};

export type DemoWriteReport = {
  skipped: boolean;
  branches: number;
  tellers: number;
  tokens: number;
  events: number;
  durationMs: number;
};

export const defaultExistingTellers: Record<string, string> = { "acc-1": "teller.accra", "kum-1": "teller.kumasi" };

export function demoRequestId(seed: number): string {
  return `demo:${seed}`;
}

export async function hasDemoData(db: Database, seed: number): Promise<boolean> {
  const found = await db
    .select({ id: tokenRequests.id })
    .from(tokenRequests)
    .where(eq(tokenRequests.requestId, demoRequestId(seed)))
    .limit(1);
  return found.length > 0;
}

/** A stable UUID (v4 layout) from a name: the same plan gives the same ids. */
export function stableUuid(name: string): string {
  const hex = createHash("sha256").update(name).digest("hex");
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export async function writeDemoData(db: Database, plan: DemoPlan, options: DemoWriteOptions): Promise<DemoWriteReport> {
  const started = performance.now();
  const report: DemoWriteReport = { skipped: false, branches: 0, tellers: 0, tokens: 0, events: 0, durationMs: 0 };
  if (await hasDemoData(db, plan.seed)) return { ...report, skipped: true };

  // Branches: keep the ones that exist (the staff seed's), add the others.
  await db
    .insert(branches)
    .values(plan.branches.map((branch) => ({ code: branch.code, name: branch.name })))
    .onConflictDoNothing({ target: branches.code });
  const branchRows = await db
    .select({ id: branches.id, code: branches.code, name: branches.name })
    .from(branches)
    .where(inArray(branches.code, plan.branches.map((branch) => branch.code)));
  const branchByCode = new Map(branchRows.map((row) => [row.code, row]));
  report.branches = branchRows.length;

  // Tellers: demo accounts without a password (they cannot sign in), unless an existing account stands in.
  const existing = options.existingTellers ?? defaultExistingTellers;
  const standIns = await db
    .select({ id: authUsers.id, username: authUsers.username })
    .from(authUsers)
    .where(inArray(authUsers.username, Object.values(existing).length ? Object.values(existing) : ["-"]));
  const standInIds = new Map(standIns.map((row) => [row.username, row.id]));
  const tellerIds = new Map<string, string>();
  const newTellers = [];
  for (const teller of plan.tellers) {
    const standIn = existing[teller.key] ? standInIds.get(existing[teller.key]!) : undefined;
    if (standIn) {
      tellerIds.set(teller.key, standIn);
      continue;
    }
    const id = `demo-${teller.username}`;
    tellerIds.set(teller.key, id);
    newTellers.push({ teller, id });
  }
  if (newTellers.length > 0) {
    await db
      .insert(authUsers)
      .values(
        newTellers.map(({ teller, id }) => ({
          id,
          name: teller.name,
          email: `${teller.username}@staff.invalid`,
          username: teller.username,
          displayUsername: teller.username,
        })),
      )
      .onConflictDoNothing();
    await db
      .insert(staffProfiles)
      .values(
        newTellers.map(({ teller, id }) => ({
          userId: id,
          role: "teller" as const,
          branchId: branchByCode.get(teller.branchCode)!.id,
          isDemo: true,
        })),
      )
      .onConflictDoNothing();
  }
  report.tellers = plan.tellers.length;

  const batchSize = options.batchSize ?? 2_000;
  const requestId = demoRequestId(plan.seed);
  let tokenBatch: Record<string, unknown>[] = [];
  let eventBatch: Record<string, unknown>[] = [];
  const flush = async () => {
    if (tokenBatch.length > 0) {
      await insertJsonRows(db, "token_requests", tokenBatch);
      report.tokens += tokenBatch.length;
      tokenBatch = [];
    }
    if (eventBatch.length > 0) {
      await insertJsonRows(db, "token_events", eventBatch);
      report.events += eventBatch.length;
      eventBatch = [];
    }
    options.onProgress?.(report.tokens, plan.totalTokens);
  };

  for (const token of plan.tokens()) {
    const id = stableUuid(`demo-token:${plan.seed}:${token.index}`);
    const branch = branchByCode.get(token.branchCode)!;
    tokenBatch.push(tokenRow(token, { id, requestId, branch, tellerId: tellerIds.get(token.tellerKey)!, keys: options.keys, seed: plan.seed }));
    if (options.withEvents) eventBatch.push(...eventRows(token, id));
    if (tokenBatch.length >= batchSize) await flush();
  }
  await flush();
  report.durationMs = Math.round(performance.now() - started);
  return report;
}

/** One token_requests row, keyed by SQL column name. */
function tokenRow(
  token: DemoToken,
  context: { id: string; requestId: string; branch: { id: string; name: string }; tellerId: string; keys: PiiKeys; seed: number },
): Record<string, unknown> {
  const { id, keys } = context;
  const encrypt = (column: string, value: string | null) => (value === null ? null : encryptField(value, `token_requests.${column}:${id}`, keys));
  const isRemote = token.kind === "remote";
  const finished = token.finishedAt?.toISOString() ?? null;
  const settledAt = token.issuedAt ?? new Date(token.createdAt.getTime() + (token.outcome === "outcome_unknown" ? 10_000 : 900));
  return {
    id,
    idempotency_key: stableUuid(`demo-key:${context.seed}:${token.index}`),
    request_fingerprint: computeRequestFingerprint({ demo: context.seed, index: token.index }, keys),
    kind: token.kind,
    id_type: token.idType,
    issued_by_user_id: context.tellerId,
    branch_id: context.branch.id,
    created_at: token.createdAt.toISOString(),
    request_id: context.requestId,
    // Reference and phones encrypted with a masked display copy, as the issuing code does (ADR 0023).
    reference_id: maskFreeText(token.referenceId),
    reference_encrypted: encrypt("reference", token.referenceId),
    reference_index: computeReferenceIndex(token.referenceId, keys),
    purpose: token.purpose,
    branch_name: isRemote ? null : context.branch.name,
    phone_number: token.phoneNumber === null ? null : maskPhoneNumber(token.phoneNumber),
    phone_number_encrypted: encrypt("phone_number", token.phoneNumber),
    consent_attested_at: token.createdAt.toISOString(),
    consent_wording_version: 1,
    options: isRemote ? { sendSms: true, skipInstructions: false, captureLocation: false, captureHomeAddress: false, livenessOnly: false } : null,
    id_number_encrypted: encrypt("id_number", token.idNumber),
    id_number_index: computeIdNumberIndex(token.idNumber, keys),
    id_number_last4: lastFourOf(token.idNumber),
    date_of_birth_encrypted: token.idType === "DRIVER_LICENCE" ? encrypt("date_of_birth", "1988-03-14") : null,
    email_encrypted: encrypt("email", token.email),
    outcome: token.outcome,
    error_code: token.errorCode,
    error_detail: token.errorCode ? "demo data" : null,
    settled_at: settledAt.toISOString(),
    token: token.token,
    issued_at: token.issuedAt?.toISOString() ?? null,
    expires_at: token.issuedAt ? new Date(token.issuedAt.getTime() + TOKEN_LIFETIME_MS).toISOString() : null,
    upstream_message: token.token ? "Token generated successfully" : null,
    sms_sent_to: isRemote && token.token && token.phoneNumber ? maskPhoneNumber(token.phoneNumber) : null,
    sms_sent_to_encrypted: isRemote && token.token ? encrypt("sms_sent_to", token.phoneNumber) : null,
    is_email_sent: Boolean(isRemote && token.token && token.email),
    // Live columns (ADRs 0007/0008): the facts a watcher would have recorded. No next poll time, so no
    // watcher ever asks the service about a demo token (the sandbox would not know it).
    ...liveColumns(token, finished),
  };
}

function liveColumns(token: DemoToken, finished: string | null): Record<string, unknown> {
  if (token.outcome !== "issued") return { live_state: null, next_poll_at: null };
  const iso = (date: Date | null) => date?.toISOString() ?? null;
  const invalidAt = token.state === "invalid" ? finished : null;
  const lastAnswer = finished ?? iso(token.usedAt);
  return {
    live_state: token.state,
    next_poll_at: null,
    last_checked_at: lastAnswer,
    last_answer_at: lastAnswer,
    last_upstream_state: token.usedAt ? "used" : token.state === "invalid" || token.state === "expired" ? "invalid" : "pending",
    last_upstream_state_at: lastAnswer,
    used_seen_at: iso(token.usedAt),
    invalid_seen_at: invalidAt,
    result_status: token.result?.status ?? null,
    transaction_number: token.result?.transactionNumber ?? null,
    result_error: token.result?.error ?? null,
    result_at: token.result ? finished : null,
    finished_at: finished,
  };
}

function eventRows(token: DemoToken, tokenRequestId: string): Record<string, unknown>[] {
  const event = (at: Date, type: string, details: Record<string, unknown> = {}) => ({ token_request_id: tokenRequestId, at: at.toISOString(), type, details });
  const events = [event(token.createdAt, "issue.requested", { demo: true })];
  if (token.outcome !== "issued") {
    const type = token.outcome === "outcome_unknown" ? "issue.outcome_unknown" : token.outcome === "rejected" ? "issue.rejected" : "issue.failed";
    events.push(event(new Date(token.createdAt.getTime() + 1_000), type, { code: token.errorCode }));
    return events;
  }
  events.push(event(token.issuedAt!, "issue.issued", {}));
  if (token.usedAt) events.push(event(token.usedAt, "state_changed", { from: "waiting", to: "in_progress" }));
  if (token.finishedAt && token.state) {
    events.push(
      event(token.finishedAt, "state_changed", {
        from: token.usedAt ? "in_progress" : "waiting",
        to: token.state,
        ...(token.result ? { transactionNumber: token.result.transactionNumber, error: token.result.error } : {}),
      }),
    );
  }
  return events;
}

/**
 * INSERT … SELECT FROM json_populate_recordset: one statement, one parameter, typed by the
 * table's own row type, so only the listed columns are written and the others take defaults.
 */
async function insertJsonRows(db: Database, table: "token_requests" | "token_events", rows: Record<string, unknown>[]): Promise<void> {
  const columns = Object.keys(rows[0]!);
  const list = sql.raw(columns.map((column) => `"${column}"`).join(", "));
  await db.execute(
    sql`insert into ${sql.raw(table)} (${list}) select ${list} from json_populate_recordset(null::${sql.raw(table)}, ${JSON.stringify(rows)}::json)`,
  );
}
