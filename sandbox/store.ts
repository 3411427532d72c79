import { generateTokenValue, generateTransactionNumber } from "./random";

export const TOKEN_LIFETIME_MS = 15 * 60_000;
export const ID_TYPES = ["GHANA_CARD", "VOTER", "PASSPORT", "DRIVER_LICENCE"] as const;
export const RESULT_STATUSES = ["SUCCESSFUL", "FAILED"] as const;
/** `invalid-token`: a 200 saying "Invalid Token" about a token it knows, as a provider failing over may once. */
export const FAULT_MODES = ["delay", "slow", "hang", "500", "502-html", "malformed-json", "wrong-shape", "401", "429", "invalid-token"] as const;
/**
 * How token_status answers a token that has no result yet. The spec does not show it and the
 * provider notes leave several shapes possible, so each is offered: a message (the default), an
 * empty object, a gateway's HTML 404 page, or a JSON 404.
 */
export const NO_RESULT_SHAPES = ["message", "empty", "html404", "json404"] as const;
/** The provider's own spelling, kept so clients are tested against the text they will really see. */
export const DEFAULT_FAILURE_ERROR = "Verification Unsuccesful";

export type IdType = (typeof ID_TYPES)[number];
export type ResultStatus = (typeof RESULT_STATUSES)[number];
export type FaultMode = (typeof FAULT_MODES)[number];
export type NoResultShape = (typeof NO_RESULT_SHAPES)[number];
export type TokenKind = "fingerprint" | "remote";
export type TokenState = "pending" | "used" | "expired";

export interface Outcome {
  status: ResultStatus;
  error?: string;
}

export interface TokenResult {
  status: ResultStatus;
  transactionNumber: string;
  error?: string;
}

export interface CaptureDetails {
  location?: string;
  homeAddress?: string;
}

/** The JSON view of a token served by the control API. */
export interface TokenRecord {
  token: string;
  kind: TokenKind;
  idType: IdType;
  createdAt: string;
  expiresAt: string;
  state: TokenState;
  usedAt?: string;
  result?: TokenResult;
  capture?: CaptureDetails;
  request: Record<string, string>;
}

interface StoredToken {
  token: string;
  kind: TokenKind;
  idType: IdType;
  createdAtMs: number;
  request: Record<string, string>;
  usedAtMs?: number;
  result?: TokenResult;
  capture?: CaptureDetails;
}

export type TransitionRefusal = "unknown" | "expired" | "used";

export type TransitionResult =
  | { ok: true; record: TokenRecord }
  | { ok: false; reason: TransitionRefusal; message: string };

export interface CallEntry {
  id: number;
  at: string;
  method: string;
  path: string;
  token?: string;
  /** 0 while no response has been sent (still running, or held open by a "hang" fault). */
  status: number;
  contentType: string | null;
  fields: Record<string, unknown>;
  fault?: FaultMode;
}

export interface Fault {
  id: number;
  mode: FaultMode;
  count: number;
  remaining: number;
  path?: string;
  /** Only calls about this token (the `token` query parameter) meet the fault. */
  token?: string;
  /** `delay`: wait before processing; `slow`: process, then wait before answering. */
  delayMs?: number;
  /** `429`: the Retry-After header's value in seconds (absent: no header). */
  retryAfterSeconds?: number;
}

export interface OutboxMessage {
  id: number;
  channel: "sms" | "email";
  to: string;
  token: string;
  link: string;
  body: string;
  sentAt: string;
}

export interface ForcedOutcome extends Outcome {
  /** Absent for an outcome waiting for the next generated token. */
  token?: string;
}

export class SandboxStore {
  private clockOffsetMs = 0;
  private tokens = new Map<string, StoredToken>();
  private outcomesByToken = new Map<string, Outcome>();
  private outcomesForNextTokens: Outcome[] = [];
  private outbox: OutboxMessage[] = [];
  private calls: CallEntry[] = [];
  private faults: Fault[] = [];
  private noResultShape: NoResultShape = "message";
  // Ids keep counting across resets so a `since` cursor held by a test never points at a reused id.
  private lastId = { call: 0, fault: 0, message: 0 };

  /** The sandbox clock: real time plus whatever the clock API has added. */
  now(): number {
    return Date.now() + this.clockOffsetMs;
  }

  nowIso(): string {
    return new Date(this.now()).toISOString();
  }

  get offsetMs(): number {
    return this.clockOffsetMs;
  }

  advanceClock(minutes: number): void {
    this.clockOffsetMs += Math.round(minutes * 60_000);
  }

  reset(): void {
    this.clockOffsetMs = 0;
    this.tokens.clear();
    this.outcomesByToken.clear();
    this.outcomesForNextTokens = [];
    this.outbox = [];
    this.calls = [];
    this.faults = [];
    this.noResultShape = "message";
  }

  get tokenStatusNoResultShape(): NoResultShape {
    return this.noResultShape;
  }

  setNoResultShape(shape: NoResultShape): void {
    this.noResultShape = shape;
  }

  // ── tokens ────────────────────────────────────────────────────────────────

  createToken(input: { kind: TokenKind; idType: IdType; request: Record<string, string> }): TokenRecord {
    let token = generateTokenValue();
    while (this.tokens.has(token)) token = generateTokenValue();
    this.tokens.set(token, { token, ...input, createdAtMs: this.now() });
    const nextOutcome = this.outcomesForNextTokens.shift();
    if (nextOutcome) this.outcomesByToken.set(token, nextOutcome);
    return this.describeToken(token)!;
  }

  describeToken(token: string): TokenRecord | undefined {
    const stored = this.tokens.get(token);
    return stored && this.toRecord(stored);
  }

  listTokens(): TokenRecord[] {
    return [...this.tokens.values()].map((stored) => this.toRecord(stored));
  }

  stateOf(token: string): TokenState | "unknown" {
    const stored = this.tokens.get(token);
    return stored ? this.deriveState(stored) : "unknown";
  }

  /** The customer opened the session: the token is spent even though no result exists yet. */
  startVerification(token: string): TransitionResult {
    const stored = this.tokens.get(token);
    const refusal = this.refuseUnlessPending(token, stored);
    if (refusal) return refusal;
    stored!.usedAtMs = this.now();
    return { ok: true, record: this.toRecord(stored!) };
  }

  /**
   * Gives a token its result. A token already in progress (used, no result) may still finish after
   * the 15 minutes: the lifetime limits starting a verification, not completing one.
   */
  completeVerification(token: string, outcome: Outcome, capture?: CaptureDetails): TransitionResult {
    const stored = this.tokens.get(token);
    const isInProgress = stored?.usedAtMs !== undefined && stored.result === undefined;
    if (!isInProgress) {
      const refusal = this.refuseUnlessPending(token, stored);
      if (refusal) return refusal;
    }
    const isSuccessful = outcome.status === "SUCCESSFUL";
    stored!.usedAtMs ??= this.now();
    stored!.result = {
      status: outcome.status,
      transactionNumber: generateTransactionNumber(isSuccessful),
      ...(isSuccessful ? {} : { error: outcome.error || DEFAULT_FAILURE_ERROR }),
    };
    if (capture && (capture.location || capture.homeAddress)) stored!.capture = capture;
    this.outcomesByToken.delete(token);
    return { ok: true, record: this.toRecord(stored!) };
  }

  /** What the customer's button press leads to; a forced outcome overrides their choice. */
  finishAsCustomer(token: string, chosen: Outcome, capture?: CaptureDetails): TransitionResult {
    return this.completeVerification(token, this.outcomesByToken.get(token) ?? chosen, capture);
  }

  private refuseUnlessPending(token: string, stored: StoredToken | undefined): TransitionResult | undefined {
    if (!stored) return { ok: false, reason: "unknown", message: `Token ${token} does not exist` };
    const state = this.deriveState(stored);
    if (state === "expired") return { ok: false, reason: "expired", message: `Token ${token} has expired` };
    if (state === "used") return { ok: false, reason: "used", message: `Token ${token} has already been used` };
    return undefined;
  }

  private deriveState(stored: StoredToken): TokenState {
    if (stored.usedAtMs !== undefined) return "used";
    return this.now() >= stored.createdAtMs + TOKEN_LIFETIME_MS ? "expired" : "pending";
  }

  private toRecord(stored: StoredToken): TokenRecord {
    const iso = (ms: number) => new Date(ms).toISOString();
    return {
      token: stored.token,
      kind: stored.kind,
      idType: stored.idType,
      createdAt: iso(stored.createdAtMs),
      expiresAt: iso(stored.createdAtMs + TOKEN_LIFETIME_MS),
      state: this.deriveState(stored),
      ...(stored.usedAtMs !== undefined && { usedAt: iso(stored.usedAtMs) }),
      ...(stored.result && { result: { ...stored.result } }),
      ...(stored.capture && { capture: { ...stored.capture } }),
      request: { ...stored.request },
    };
  }

  // ── forced outcomes ───────────────────────────────────────────────────────

  forceOutcome(forced: ForcedOutcome): void {
    const { token, ...outcome } = forced;
    if (token) this.outcomesByToken.set(token, outcome);
    else this.outcomesForNextTokens.push(outcome);
  }

  listForcedOutcomes(): ForcedOutcome[] {
    return [
      ...[...this.outcomesByToken].map(([token, outcome]) => ({ token, ...outcome })),
      ...this.outcomesForNextTokens.map((outcome) => ({ ...outcome })),
    ];
  }

  // ── outbox ────────────────────────────────────────────────────────────────

  sendMessage(message: Omit<OutboxMessage, "id" | "sentAt">): OutboxMessage {
    const sent = { id: ++this.lastId.message, ...message, sentAt: this.nowIso() };
    this.outbox.push(sent);
    return sent;
  }

  listMessages(): OutboxMessage[] {
    return this.outbox.map((message) => ({ ...message }));
  }

  // ── call log ──────────────────────────────────────────────────────────────

  /** Returns the live entry: the caller fills in status, token and fault as the call proceeds. */
  logCall(call: Omit<CallEntry, "id" | "at" | "status">): CallEntry {
    const entry: CallEntry = { id: ++this.lastId.call, at: this.nowIso(), ...call, status: 0 };
    this.calls.push(entry);
    return entry;
  }

  listCalls(sinceId = 0): CallEntry[] {
    return this.calls.filter((call) => call.id > sinceId).map((call) => ({ ...call }));
  }

  // ── faults ────────────────────────────────────────────────────────────────

  addFault(fault: Omit<Fault, "id" | "remaining">): Fault {
    const added = { id: ++this.lastId.fault, ...fault, remaining: fault.count };
    this.faults.push(added);
    return { ...added };
  }

  listFaults(): Fault[] {
    return this.faults.map((fault) => ({ ...fault }));
  }

  removeFault(id: number): boolean {
    const before = this.faults.length;
    this.faults = this.faults.filter((fault) => fault.id !== id);
    return this.faults.length < before;
  }

  clearFaults(): void {
    this.faults = [];
  }

  /** Consumes one use of the oldest fault matching the path (and the token asked about), if any. */
  takeFault(path: string, token?: string): Fault | undefined {
    const fault = this.faults.find(
      (candidate) => (!candidate.path || path.startsWith(candidate.path)) && (!candidate.token || candidate.token === token),
    );
    if (!fault) return undefined;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.faults = this.faults.filter((candidate) => candidate !== fault);
    return { ...fault };
  }
}
