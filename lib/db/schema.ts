import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, integer, jsonb, pgEnum, pgSequence, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { ID_TYPES } from "@/lib/domain/id-types";
import { STAFF_ROLES } from "@/lib/domain/staff-roles";
import { TOKEN_KINDS } from "@/lib/domain/token-kinds";
import { TOKEN_STATES } from "@/lib/domain/token-states";

/**
 * The one schema of Veridesk, shared by PGlite and PostgreSQL: `npm run db:generate` turns it into
 * the committed migrations in drizzle/. Add a table in its own section below, with a comment on why
 * it exists; columns are snake_case in SQL and camelCase in TypeScript, named explicitly.
 *
 * No `import "server-only"` here, unlike the rest of lib/db: drizzle-kit loads this file outside
 * any bundler, where that import throws. Table definitions hold no secrets and open no connection.
 */

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();

// ─── Organisation ────────────────────────────────────────────────────────────────────────────────
// Branches of the bank. Staff belong to one, and every token and audit event is traced to one.

export const branches = pgTable("branches", {
  id: uuid("id").primaryKey().defaultRandom(),
  /** The bank's own short code for the branch, as printed on its documents. */
  code: text("code").notNull().unique(),
  name: text("name").notNull(),
  createdAt: createdAt(),
});

// ─── Audit trail ─────────────────────────────────────────────────────────────────────────────────
// Who did what, when. Append-only: the migration `audit-append-only` adds a trigger that refuses
// UPDATE, DELETE and TRUNCATE, so not even a bug or a hand-typed query can rewrite history.

export const auditEvents = pgTable(
  "audit_events",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    /**
     * When the event joined the chain: set by the chain trigger (migration `audit-at-set-by-database`)
     * whatever the INSERT says, so no writer can date an event; the default only lets Drizzle's
     * insert type leave it out.
     */
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    /** Null for events without a signed-in actor (a failed sign-in, the system itself). */
    actorUserId: text("actor_user_id"),
    /** How the actor was known at the time (their username), kept because users get renamed. */
    actorLabel: text("actor_label"),
    /** Dotted `domain.verb`, e.g. "auth.sign_in", "staff.update". */
    action: text("action").notNull(),
    subjectType: text("subject_type"),
    subjectId: text("subject_id"),
    // RESTRICT: a branch with history cannot be deleted (SET NULL would be an UPDATE, refused anyway).
    branchId: uuid("branch_id").references(() => branches.id, { onDelete: "restrict" }),
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
    requestId: text("request_id"),
    // The hash chain (ADR 0019): set by the BEFORE INSERT trigger of migration `audit-hash-chain`,
    // whatever the INSERT says; the defaults only let Drizzle's insert type leave them out.
    /** 1, 2, 3… in the order events joined the chain (not `id`, handed out before the chain lock). */
    chainSeq: bigint("chain_seq", { mode: "number" }).notNull().default(0),
    /** The previous event's `hash`; 64 zeros for the first event. */
    prevHash: text("prev_hash").notNull().default(""),
    /** SHA-256 (hex) of `prev_hash` and this event's fields; lib/audit/chain.ts recomputes it. */
    hash: text("hash").notNull().default(""),
  },
  (table) => [
    uniqueIndex("audit_events_chain_seq_idx").on(table.chainSeq),
    index("audit_events_at_idx").on(table.at),
    index("audit_events_actor_at_idx").on(table.actorUserId, table.at),
    index("audit_events_action_at_idx").on(table.action, table.at),
  ],
);

export type Branch = typeof branches.$inferSelect;
export type NewBranch = typeof branches.$inferInsert;
export type AuditEvent = typeof auditEvents.$inferSelect;
export type NewAuditEvent = typeof auditEvents.$inferInsert;

// ─── Staff sign-in (better-auth) ─────────────────────────────────────────────────────────────────
// better-auth's own tables, written by hand from its documented schema (the `auth` CLI crashes on
// Node 20) for the features in use: username + password sign-in, database sessions, database rate
// limiting. TypeScript keys are better-auth's field names (its Drizzle adapter maps by them; it also
// checks these tables against its schema at first use). lib/auth/server.ts wires them in.
// Nothing but better-auth and lib/auth, lib/staff write here.

const updatedAt = () => timestamp("updated_at", { withTimezone: true }).notNull().defaultNow();

export const authUsers = pgTable("auth_users", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  /** better-auth requires one; staff sign in by username, so it is `<username>@staff.invalid`. */
  email: text("email").notNull().unique(),
  emailVerified: boolean("email_verified").notNull().default(false),
  image: text("image"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
  /** The staff ID they sign in with, lower-cased (username plugin). */
  username: text("username").unique(),
  displayUsername: text("display_username"),
  /** An authenticator app is enrolled and verified (better-auth's twoFactor plugin). */
  twoFactorEnabled: boolean("two_factor_enabled").notNull().default(false),
});

export const authSessions = pgTable(
  "auth_sessions",
  {
    id: text("id").primaryKey(),
    /** The absolute end (SESSION_MAX_HOURS after sign-in): never slid, see ADR 0003. */
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    token: text("token").notNull().unique(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    userId: text("user_id")
      .notNull()
      .references(() => authUsers.id, { onDelete: "cascade" }),
    /** Last request of the staff member; the idle timeout (SESSION_IDLE_MINUTES) counts from it. */
    lastActiveAt: timestamp("last_active_at", { withTimezone: true }).notNull().defaultNow(),
    /**
     * How this session was signed in (lib/auth/sign-in-methods.ts): `password`, `totp`,
     * `backup_code`, `passkey` or `sso`. Whether it carries a second factor is read from it.
     */
    authMethod: text("auth_method").notNull().default("password"),
  },
  (table) => [index("auth_sessions_user_id_idx").on(table.userId)],
);

export const authAccounts = pgTable(
  "auth_accounts",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    /** Always "credential" here: the password hash lives in `password`. */
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => authUsers.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true }),
    refreshTokenExpiresAt: timestamp("refresh_token_expires_at", { withTimezone: true }),
    scope: text("scope"),
    password: text("password"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index("auth_accounts_user_id_idx").on(table.userId)],
);

export const authVerifications = pgTable(
  "auth_verifications",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index("auth_verifications_identifier_idx").on(table.identifier)],
);

/** better-auth's per-IP request counters, in the database so that every app instance shares them. */
export const authRateLimits = pgTable("auth_rate_limits", {
  id: text("id").primaryKey(),
  key: text("key").notNull().unique(),
  count: integer("count").notNull(),
  lastRequest: bigint("last_request", { mode: "number" }).notNull(),
});

// ─── Staff ───────────────────────────────────────────────────────────────────────────────────────
// What Veridesk knows about a staff account beyond sign-in: role, branch, disabled. A table of our
// own rather than extra columns on auth_users so that better-auth's user endpoints can never
// write them, and so the role is a real enum and the branch a real foreign key (ADR 0003).

export const staffRole = pgEnum("staff_role", STAFF_ROLES);

export const staffProfiles = pgTable(
  "staff_profiles",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => authUsers.id, { onDelete: "cascade" }),
    role: staffRole("role").notNull(),
    branchId: uuid("branch_id")
      .notNull()
      .references(() => branches.id, { onDelete: "restrict" }),
    /** Set = cannot sign in, and every session was revoked at that moment. */
    disabledAt: timestamp("disabled_at", { withTimezone: true }),
    /** Created by the local seed with a published password: refused when APP_ENV=production. */
    isDemo: boolean("is_demo").notNull().default(false),
    /**
     * Set when an admin hands out a temporary password (new staff, reset): until the staff member
     * chooses their own, they can reach only the change-password page and sign out (ADR 0012).
     */
    mustChangePassword: boolean("must_change_password").notNull().default(false),
    /**
     * A break-glass administrator: may still sign in with a password (and its second factor) when
     * single sign-on is configured, for when the bank's identity provider is down. Set only by
     * `npm run staff:create -- --break-glass`; every such sign-in is audited as break-glass.
     */
    isBreakGlass: boolean("is_break_glass").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index("staff_profiles_branch_id_idx").on(table.branchId)],
);

// ─── Second factors and single sign-on ───────────────────────────────────────────────────────────
// An authenticator app (TOTP) with its backup codes, passkeys, the codes already used, and the
// link between a staff account and its identity at the bank's identity provider.

/** better-auth's twoFactor plugin's table: the TOTP secret and the backup codes, both encrypted. */
export const twoFactors = pgTable(
  "two_factors",
  {
    id: text("id").primaryKey(),
    secret: text("secret").notNull(),
    backupCodes: text("backup_codes").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => authUsers.id, { onDelete: "cascade" }),
    /** False between "set up" and the first code typed back. */
    verified: boolean("verified").notNull().default(true),
    failedVerificationCount: integer("failed_verification_count").notNull().default(0),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
  },
  (table) => [index("two_factors_user_id_idx").on(table.userId)],
);

/**
 * Authenticator codes already accepted, kept a few minutes: a code is good once, even inside the
 * window in which the authenticator app still shows it. Only a digest of the code is kept.
 */
export const secondFactorUsedCodes = pgTable(
  "second_factor_used_codes",
  {
    userId: text("user_id")
      .notNull()
      .references(() => authUsers.id, { onDelete: "cascade" }),
    codeDigest: text("code_digest").notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.codeDigest] })],
);

/** WebAuthn credentials (passkeys) of staff accounts: public keys only. */
export const passkeys = pgTable(
  "passkeys",
  {
    id: text("id").primaryKey(),
    name: text("name"),
    publicKey: text("public_key").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => authUsers.id, { onDelete: "cascade" }),
    credentialId: text("credential_id").notNull().unique(),
    /** The authenticator's signature counter: one that goes backwards is a cloned key. */
    counter: integer("counter").notNull().default(0),
    deviceType: text("device_type").notNull(),
    backedUp: boolean("backed_up").notNull().default(false),
    transports: text("transports"),
    aaguid: text("aaguid"),
    createdAt: createdAt(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  },
  (table) => [index("passkeys_user_id_idx").on(table.userId)],
);

/**
 * A staff account's identity at the bank's identity provider: issuer + subject, set at the first
 * single sign-on (matched by username then) and the only thing matched from then on.
 */
export const ssoIdentities = pgTable(
  "sso_identities",
  {
    issuer: text("issuer").notNull(),
    subject: text("subject").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => authUsers.id, { onDelete: "cascade" }),
    /** The provider's username when the link was made (it may be renamed there since). */
    usernameAtLink: text("username_at_link").notNull(),
    linkedAt: timestamp("linked_at", { withTimezone: true }).notNull().defaultNow(),
    lastSignInAt: timestamp("last_sign_in_at", { withTimezone: true }),
  },
  (table) => [primaryKey({ columns: [table.issuer, table.subject] }), uniqueIndex("sso_identities_issuer_user_idx").on(table.issuer, table.userId)],
);

/**
 * Failed sign-ins per typed username (whether or not such an account exists, so a lock-out never
 * tells which usernames are real): the last few failure times, and the lock they led to.
 */
export const signInThrottles = pgTable("sign_in_throttles", {
  username: text("username").primaryKey(),
  /** ISO times of the most recent failures inside the counting window, oldest first. */
  recentFailures: jsonb("recent_failures").$type<string[]>().notNull().default(sql`'[]'::jsonb`),
  lockedUntil: timestamp("locked_until", { withTimezone: true }),
  updatedAt: updatedAt(),
});

export type AuthUser = typeof authUsers.$inferSelect;
export type AuthSession = typeof authSessions.$inferSelect;
export type StaffProfile = typeof staffProfiles.$inferSelect;
export type SignInThrottle = typeof signInThrottles.$inferSelect;

// ─── Tokens ──────────────────────────────────────────────────────────────────────────────────────
// One row per attempt to issue a token (lib/tokens), written BEFORE the service is called, so a
// double submit finds the first attempt by its idempotency key, a timed-out call leaves a row
// saying "outcome unknown", and every token the service issued is traced to who, where and when
// (ADR 0005). Customer identifiers are stored encrypted, with a keyed blind index for exact
// search (ADR 0006). The live state of an issued token (ADR 0008) goes in columns added here
// later (state, next poll time, result); the issuing columns below never change after settling.

export const tokenKind = pgEnum("token_kind", TOKEN_KINDS);
export const tokenIdType = pgEnum("token_id_type", ID_TYPES);
/**
 * How the issuing call ended: `pending` while it runs; `issued` with a token; `outcome_unknown`
 * when no readable answer came (timeout, unreadable 200) — the service may have issued a token
 * and sent an SMS; `rejected` when the service refused the input (4xx); `failed_upstream` when it
 * certainly did not issue one (5xx, refused key, unreachable).
 */
export const tokenIssueOutcome = pgEnum("token_issue_outcome", ["pending", "issued", "outcome_unknown", "rejected", "failed_upstream"]);

/** The live state of an issued token as the watcher last derived it (lib/tokens/state.ts). */
export const tokenLiveState = pgEnum("token_live_state", TOKEN_STATES);
/** The outcome in token_status's result object. */
export const tokenResultStatus = pgEnum("token_result_status", ["SUCCESSFUL", "FAILED"]);

/** The remote-token options as the teller chose them (app names; lib/validation maps them). */
export type RemoteTokenOptions = {
  sendSms: boolean;
  skipInstructions: boolean;
  captureLocation: boolean;
  captureHomeAddress: boolean;
  livenessOnly: boolean;
};

/**
 * The bank's verification purposes, each with its policy (ADR 0016): which kinds of token may be
 * used for it and, for remote tokens, which ID documents. Data, not code, because the bank's
 * compliance officer owns the policy; admins change it on /admin/purposes (audited). The default
 * set is inserted by the migration that created the table, so every database starts with a
 * sensible policy. A retired purpose is no longer offered but still names the tokens issued for it.
 */
export const verificationPurposes = pgTable("verification_purposes", {
  id: uuid("id").primaryKey().defaultRandom(),
  /** As offered on the forms, sent to the service and stored on each token. */
  name: text("name").notNull().unique(),
  allowsFingerprint: boolean("allows_fingerprint").notNull(),
  allowsRemote: boolean("allows_remote").notNull(),
  /** The ID documents a remote token may use for this purpose (fingerprint is always Ghana Card). */
  remoteIdTypes: tokenIdType("remote_id_types").array().notNull(),
  isActive: boolean("is_active").notNull().default(true),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export type VerificationPurpose = typeof verificationPurposes.$inferSelect;

/**
 * Where `token_requests.shown_version` takes its values (ADR 0033): one sequence for the table, so
 * a version is never given twice, whichever rows and instances write.
 */
export const tokenRequestsShownVersionSeq = pgSequence("token_requests_shown_version_seq");

export const tokenRequests = pgTable(
  "token_requests",
  {
    /** Generated by the app before insert: it is bound into the ciphertexts of the row. */
    id: uuid("id").primaryKey(),
    /** One per form render; a second submit with it finds this row instead of a new token. */
    idempotencyKey: uuid("idempotency_key").notNull().unique(),
    /** Keyed digest of the normalised request: the same key with other fields is refused. */
    requestFingerprint: text("request_fingerprint").notNull(),
    kind: tokenKind("kind").notNull(),
    idType: tokenIdType("id_type").notNull(),
    issuedByUserId: text("issued_by_user_id")
      .notNull()
      .references(() => authUsers.id, { onDelete: "restrict" }),
    branchId: uuid("branch_id")
      .notNull()
      .references(() => branches.id, { onDelete: "restrict" }),
    createdAt: createdAt(),
    /** Request id of the submit, to find its log lines. */
    requestId: text("request_id"),

    // What was sent: reference, purpose, branch name (fingerprint), phone and options (remote).
    // The reference (usually the customer's phone) and the phone numbers are encrypted like the
    // ID number (ADR 0023): the SQL columns reference_id, phone_number and
    // sms_sent_to hold only the MASKED display copy (`024 ••• 4567`); the migration
    // phone-encryption-consent-retention and lib/pii/backfill.ts encrypted the rows written before.
    /** Masked display copy of the reference (every run of 7+ digits masked); null once erased. */
    referenceMasked: text("reference_id"),
    /** AES-256-GCM of the reference as sent to the service; null once erased. */
    referenceEncrypted: text("reference_encrypted"),
    /** HMAC blind index of the reference: the review's exact reference filter; null once erased. */
    referenceIndex: text("reference_index"),
    purpose: text("purpose"),
    /** The purpose whose policy allowed this token (null on tokens issued before purposes were data). */
    purposeId: uuid("purpose_id").references(() => verificationPurposes.id, { onDelete: "restrict" }),
    branchName: text("branch_name"),
    /** Masked display copy of the customer's phone (remote tokens); null once erased. */
    phoneNumberMasked: text("phone_number"),
    phoneNumberEncrypted: text("phone_number_encrypted"),
    options: jsonb("options").$type<RemoteTokenOptions>(),

    // The customer's identifiers: AES-256-GCM (lib/pii), never stored or logged in clear.
    // The identity columns are null only once erased under the retention policy (ADR 0022).
    idNumberEncrypted: text("id_number_encrypted"),
    /** HMAC of the canonical ID number: exact search and "same customer" without decrypting. */
    idNumberIndex: text("id_number_index"),
    /** For masked display (GHA-•••••789-0) and "ends with" search. */
    idNumberLast4: text("id_number_last4"),
    dateOfBirthEncrypted: text("date_of_birth_encrypted"),
    emailEncrypted: text("email_encrypted"),

    // How the call ended.
    outcome: tokenIssueOutcome("outcome").notNull().default("pending"),
    /** AppError code of a failed or unknown outcome (UPSTREAM_TIMEOUT, UPSTREAM_REJECTED, …). */
    errorCode: text("error_code"),
    /** The internal message (built from scrubbed service text: no customer data). */
    errorDetail: text("error_detail"),
    /** When the call ended, whatever the outcome. */
    settledAt: timestamp("settled_at", { withTimezone: true }),
    token: text("token").unique(),
    /** The app's clock when the service answered with the token: the 15 minutes count from here. */
    issuedAt: timestamp("issued_at", { withTimezone: true }),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    /** The service's confirmation text. */
    upstreamMessage: text("upstream_message"),
    /** Masked copy of the number the service says the SMS went to (remote tokens with SMS on). */
    smsSentToMasked: text("sms_sent_to"),
    smsSentToEncrypted: text("sms_sent_to_encrypted"),
    /** Whether the link also went by e-mail (to the encrypted address above). */
    isEmailSent: boolean("is_email_sent").notNull().default(false),

    // ─── Live state (ADR 0008, lib/watcher): facts the watcher saw, from which lib/tokens/state.ts
    // derives the state. Written only by the watcher, under its lease. See ADRs 0007 and 0008.
    /** The state last derived by the watcher (for lists and filters; pages derive it afresh). */
    liveState: tokenLiveState("live_state"),
    /** When the watcher next asks the service; due rows are leased in order of it. */
    nextPollAt: timestamp("next_poll_at", { withTimezone: true }).defaultNow(),
    /** Which watcher process holds the row, and until when (a crashed holder's lease runs out). */
    leaseOwner: text("lease_owner"),
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    /** Faults in a row since the last answer: the backoff. */
    pollFailures: integer("poll_failures").notNull().default(0),
    lastCheckedAt: timestamp("last_checked_at", { withTimezone: true }),
    lastAnswerAt: timestamp("last_answer_at", { withTimezone: true }),
    /** The latest check_token_status answer: pending, used or invalid. */
    lastUpstreamState: text("last_upstream_state"),
    lastUpstreamStateAt: timestamp("last_upstream_state_at", { withTimezone: true }),
    usedSeenAt: timestamp("used_seen_at", { withTimezone: true }),
    invalidSeenAt: timestamp("invalid_seen_at", { withTimezone: true }),
    resultStatus: tokenResultStatus("result_status"),
    transactionNumber: text("transaction_number"),
    /** The service's failure text (FAILED only). */
    resultError: text("result_error"),
    resultAt: timestamp("result_at", { withTimezone: true }),
    /**
     * Milliseconds from issue to result, kept by the database itself (a stored generated column,
     * so no writer can forget it). The review figures' percentiles read it from the covering
     * index instead of computing and printing an interval per row (ADR 0014).
     */
    msToResult: integer("ms_to_result").generatedAlwaysAs(sql`round(extract(epoch from (result_at - issued_at)) * 1000)::integer`),
    /** The latest fault reaching the service (an UPSTREAM_* code), and when its run began. */
    lastFaultCode: text("last_fault_code"),
    lastFaultAt: timestamp("last_fault_at", { withTimezone: true }),
    faultSince: timestamp("fault_since", { withTimezone: true }),
    /** Set when the state became final: the watcher stops, nothing is recorded after. */
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    /**
     * When a page last showed this token (written in batches by lib/watcher/viewers.ts, never per
     * poll request): a watched token is polled every couple of seconds, others far less (ADR 0017).
     */
    lastViewedAt: timestamp("last_viewed_at", { withTimezone: true }),

    // ─── Compliance (ADRs 0022, 0023) ─────────────────────────────────────────────────────────
    /** When the teller attested that the customer was told what is checked and agreed. */
    consentAttestedAt: timestamp("consent_attested_at", { withTimezone: true }),
    /** Which version of the consent wording (consent_wordings) the teller read out. */
    consentWordingVersion: integer("consent_wording_version"),
    /** Contact data (phone, e-mail, reference) erased: when, and under what ("retention" | "request"). */
    contactErasedAt: timestamp("contact_erased_at", { withTimezone: true }),
    contactErasedUnder: text("contact_erased_under"),
    /** Identity data (ID number and its index, date of birth) erased: when, and under what. */
    identityErasedAt: timestamp("identity_erased_at", { withTimezone: true }),
    identityErasedUnder: text("identity_erased_under"),
    /** A legal hold exempts the row from any erasure until released (supervisor, with reason). */
    legalHoldAt: timestamp("legal_hold_at", { withTimezone: true }),
    legalHoldByUserId: text("legal_hold_by_user_id").references(() => authUsers.id, { onDelete: "restrict" }),
    legalHoldReason: text("legal_hold_reason"),
    /** Placed by head office (a member who reads every branch): only head office may release it. */
    legalHoldByHeadOffice: boolean("legal_hold_by_head_office").notNull().default(false),

    // ─── Risk rules (ADR 0046, lib/risk): what the rules match on, never a decrypted value ────
    /** HMAC blind index of the customer's phone (remote tokens), domain "phone"; null once erased. */
    phoneNumberIndex: text("phone_number_index"),
    /** The phone's country calling code ("233" for Ghana): the "link sent abroad" rule; erased with the phone. */
    phoneCallingCode: text("phone_calling_code"),

    /**
     * The version of what a viewer sees of this row, kept by the database (ADR 0033): the trigger
     * `token_requests_shown_version` gives it the sequence's next value on insert and whenever an
     * update changes any column but the watcher's bookkeeping (`unshownTokenColumns` in
     * lib/db/shown-version.ts), and keeps it otherwise, whatever the writer says. The poll
     * routes compare it instead of hashing the row. The default numbers the rows that existed
     * when the column was added.
     */
    shownVersion: bigint("shown_version", { mode: "number" })
      .notNull()
      .default(sql`nextval('public.token_requests_shown_version_seq')`),
  },
  (table) => [
    // The watcher's lease query: open, issued tokens by next poll time (ADR 0007).
    index("token_requests_due_poll_idx")
      .on(table.nextPollAt)
      .where(sql`${table.outcome} = 'issued' and ${table.finishedAt} is null`),
    index("token_requests_id_number_index_idx").on(table.idNumberIndex, table.createdAt),
    index("token_requests_branch_created_idx").on(table.branchId, table.createdAt),
    index("token_requests_issued_by_created_idx").on(table.issuedByUserId, table.createdAt),
    index("token_requests_outcome_created_idx").on(table.outcome, table.createdAt),
    // Supervisor review (ADR 0010): state filter and sort, newest first; reference
    // "starts with" and sort in byte order (collation "C"), whatever the database's collation.
    // The covering (created_at, id) INCLUDE (…) index of the list, export and figures is in the
    // hand-written migration review-covering-index (Drizzle cannot declare INCLUDE).
    index("token_requests_live_state_created_idx").on(table.liveState, table.createdAt),
    // The ID type filter, newest first, and its capped count (a rare type would otherwise scan
    // most of the table to count 10 000 matches; ADR 0014).
    index("token_requests_id_type_created_idx").on(table.idType, table.createdAt),
    // The purpose filter of the review list (ADR 0016), newest first.
    index("token_requests_purpose_created_idx").on(table.purpose, table.createdAt),
    index("token_requests_reference_idx").using("btree", sql`(reference_id collate "C")`, table.createdAt),
    // The review's exact reference filter through the blind index (ADR 0023).
    index("token_requests_reference_index_idx").on(table.referenceIndex, table.createdAt),
    // The risk rules' "same phone" windows (ADR 0046).
    index("token_requests_phone_number_index_idx").on(table.phoneNumberIndex, table.createdAt),
    // The risk evaluator's cursor: the rows changed since the last version it evaluated (ADR 0046).
    index("token_requests_shown_version_idx").on(table.shownVersion),
  ],
);

/**
 * The consent wording tellers read to the customer (ADR 0023), versioned: publishing a new
 * wording adds a row, never edits one, so every token names the exact words its consent covered.
 * The newest version is the one in force. Version 1 is inserted by the migration.
 */
export const consentWordings = pgTable("consent_wordings", {
  version: integer("version").primaryKey(),
  text: text("text").notNull(),
  createdAt: createdAt(),
  /** Null for the version the migration inserted. */
  createdByUserId: text("created_by_user_id").references(() => authUsers.id, { onDelete: "restrict" }),
});

export type ConsentWording = typeof consentWordings.$inferSelect;

/**
 * What happened to a token, in order: requested, issued / rejected / outcome unknown, and (issue
 * 6) every state change seen by the watcher. `details` never holds customer identifiers.
 */
export const tokenEvents = pgTable(
  "token_events",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    tokenRequestId: uuid("token_request_id")
      .notNull()
      .references(() => tokenRequests.id, { onDelete: "restrict" }),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    /** `issue.requested`, `issue.issued`, `issue.rejected`, `issue.failed`, `issue.outcome_unknown`, … */
    type: text("type").notNull(),
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
  },
  (table) => [index("token_events_request_at_idx").on(table.tokenRequestId, table.at)],
);

/**
 * The provider's rate budget, shared by every instance (ADR 0017): one row. Status calls are
 * counted per one-second window against WATCHER_CALLS_PER_SECOND, and a 429's Retry-After pauses
 * every watcher until `paused_until`. Updated inside the lease transaction, under a row lock.
 */
export const upstreamCallBudget = pgTable("upstream_call_budget", {
  id: integer("id").primaryKey().default(1),
  windowStartedAt: timestamp("window_started_at", { withTimezone: true }).notNull().defaultNow(),
  callsInWindow: integer("calls_in_window").notNull().default(0),
  pausedUntil: timestamp("paused_until", { withTimezone: true }),
  /** Why the watchers are paused (the fault code and the Retry-After read), for the admin. */
  pauseReason: text("pause_reason"),
  /** Leases refused for want of budget since the last one granted: the backlog's cause, shown to admins. */
  deferredSince: timestamp("deferred_since", { withTimezone: true }),
});

/**
 * Each running instance, as it last said it was (ADR 0024, lib/server/heartbeat.ts): written every
 * few seconds, marked while it stops, removed when it has stopped. The Operations page lists them;
 * one whose heartbeat is old has died without saying so.
 */
export const instanceHeartbeats = pgTable("instance_heartbeats", {
  /** `<host>:<pid>:<random>`, the same id the watcher leases tokens under. */
  instanceId: text("instance_id").primaryKey(),
  host: text("host").notNull(),
  pid: integer("pid").notNull(),
  startedAt: timestamp("started_at", { withTimezone: true }).notNull(),
  lastSeenAt: timestamp("last_seen_at", { withTimezone: true }).notNull(),
  runsWatcher: boolean("runs_watcher").notNull(),
  isStopping: boolean("is_stopping").notNull().default(false),
});

export type TokenRequest = typeof tokenRequests.$inferSelect;
export type NewTokenRequest = typeof tokenRequests.$inferInsert;
export type TokenEvent = typeof tokenEvents.$inferSelect;
export type TokenIssueOutcome = (typeof tokenIssueOutcome.enumValues)[number];

// ─── Separation of duties (ADR 0020) ─────────────────────────────────────────────────────────────
// A grant that widens someone's access to customer data (or makes them an administrator) proposed
// by one administrator waits here until a second one approves it; nothing changes before.
// lib/staff/role-approvals.ts writes it; every step is audited.

export const roleApprovalKind = pgEnum("role_approval_kind", ["create", "role_change"]);
export const roleApprovalStatus = pgEnum("role_approval_status", ["pending", "approved", "rejected", "cancelled"]);

export const staffRoleApprovals = pgTable(
  "staff_role_approvals",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: roleApprovalKind("kind").notNull(),
    status: roleApprovalStatus("status").notNull().default("pending"),
    /** The account to change (role_change); for `create`, the account made on approval. */
    subjectUserId: text("subject_user_id"),
    /** Lower-cased username: of the account to create, or of the subject when proposed. */
    username: text("username").notNull(),
    name: text("name").notNull(),
    role: staffRole("role").notNull(),
    branchId: uuid("branch_id")
      .notNull()
      .references(() => branches.id, { onDelete: "restrict" }),
    /** The subject's role and branch when proposed: approval is refused if they changed since. */
    fromRole: staffRole("from_role"),
    fromBranchId: uuid("from_branch_id"),
    proposedByUserId: text("proposed_by_user_id").notNull(),
    proposedByUsername: text("proposed_by_username").notNull(),
    proposedAt: timestamp("proposed_at", { withTimezone: true }).notNull().defaultNow(),
    decidedByUserId: text("decided_by_user_id"),
    decidedByUsername: text("decided_by_username"),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
  },
  (table) => [
    // One open proposal per account and per new username: a second would race the first.
    uniqueIndex("staff_role_approvals_pending_subject_idx").on(table.subjectUserId).where(sql`status = 'pending' AND subject_user_id IS NOT NULL`),
    uniqueIndex("staff_role_approvals_pending_username_idx").on(table.username).where(sql`status = 'pending'`),
    index("staff_role_approvals_status_idx").on(table.status, table.proposedAt),
  ],
);

export type StaffRoleApproval = typeof staffRoleApprovals.$inferSelect;

// ─── A lost second factor (ADR 0020, ADR 0041) ───────────────────────────────────────────────────
// Removing someone's authenticator app and passkeys, when they lost them and have no backup code
// left, is half of taking their account over (a password reset is the other half), so one
// administrator proposes it and a second one, neither the author nor the account's owner, applies
// it. lib/staff/second-factor-resets.ts writes it; every step is audited.

export const secondFactorResets = pgTable(
  "second_factor_resets",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    status: roleApprovalStatus("status").notNull().default("pending"),
    subjectUserId: text("subject_user_id")
      .notNull()
      .references(() => authUsers.id, { onDelete: "cascade" }),
    /** Why, in the proposer's words (how the person's identity was checked). */
    reason: text("reason").notNull(),
    proposedByUserId: text("proposed_by_user_id").notNull(),
    proposedByUsername: text("proposed_by_username").notNull(),
    proposedAt: timestamp("proposed_at", { withTimezone: true }).notNull().defaultNow(),
    decidedByUserId: text("decided_by_user_id"),
    decidedByUsername: text("decided_by_username"),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
  },
  (table) => [
    // One open proposal per account: a second would race the first.
    uniqueIndex("second_factor_resets_pending_subject_idx").on(table.subjectUserId).where(sql`status = 'pending'`),
  ],
);

export type SecondFactorReset = typeof secondFactorResets.$inferSelect;

// ─── Risk rules, alerts and cases (ADR 0046) ─────────────────────────────────────────────────────
// Rules over every token and audit event, run on blind indexes by lib/risk, behind a cursor. Rules
// are data, versioned: a change is a new pending version a second person approves. A hit opens or
// extends one alert per rule and subject; alerts on one subject group into a case, routed so that
// neither its subject nor a teller ever sees it.

export const riskRuleMode = pgEnum("risk_rule_mode", ["off", "shadow", "live"]);
export const riskRuleStatus = pgEnum("risk_rule_status", ["pending", "active", "retired", "rejected"]);
export const riskSeverity = pgEnum("risk_severity", ["low", "medium", "high"]);
export const riskCaseState = pgEnum("risk_case_state", ["open", "in_review", "cleared", "escalated", "reported", "not_reported"]);

export const riskRuleVersions = pgTable(
  "risk_rule_versions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** `same_id_velocity`, `mule_phone`, …: lib/risk/rules.ts names them. */
    ruleKey: text("rule_key").notNull(),
    version: integer("version").notNull(),
    params: jsonb("params").$type<Record<string, unknown>>().notNull(),
    severity: riskSeverity("severity").notNull(),
    mode: riskRuleMode("mode").notNull(),
    status: riskRuleStatus("status").notNull().default("pending"),
    /** Null for the versions the migration inserted (the shipped defaults). */
    proposedByUserId: text("proposed_by_user_id"),
    proposedAt: timestamp("proposed_at", { withTimezone: true }).notNull().defaultNow(),
    /** Why the change, in the proposer's words. */
    reason: text("reason"),
    approvedByUserId: text("approved_by_user_id"),
    /** From then on its hits count: an approved change never makes alerts for what came before. */
    approvedAt: timestamp("approved_at", { withTimezone: true }),
    retiredAt: timestamp("retired_at", { withTimezone: true }),
  },
  (table) => [
    uniqueIndex("risk_rule_versions_key_version_idx").on(table.ruleKey, table.version),
    uniqueIndex("risk_rule_versions_active_idx").on(table.ruleKey).where(sql`status = 'active'`),
  ],
);

/** The live evaluator's place (one row): the newest token version and audit event it evaluated, and its lease. */
export const riskEvaluatorState = pgTable("risk_evaluator_state", {
  id: integer("id").primaryKey().default(1),
  /** `token_requests.shown_version` evaluated up to. */
  tokenVersionCursor: bigint("token_version_cursor", { mode: "number" }).notNull().default(0),
  /** `audit_events.chain_seq` evaluated up to. */
  auditSeqCursor: bigint("audit_seq_cursor", { mode: "number" }).notNull().default(0),
  evaluatedAt: timestamp("evaluated_at", { withTimezone: true }),
  leaseOwner: text("lease_owner"),
  leaseUntil: timestamp("lease_until", { withTimezone: true }),
  lastError: text("last_error"),
});

export const riskCases = pgTable(
  "risk_cases",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** `id` (an ID number's blind index), `phone` (a phone's blind index) or `staff` (a user id). */
    subjectType: text("subject_type").notNull(),
    subjectKey: text("subject_key").notNull(),
    /** Masked, for lists: `GHA-•••••789-0`, `024 ••• 4567`, a username. */
    subjectLabel: text("subject_label").notNull(),
    /** Customer cases: the branch of the subject's latest token (its supervisor sees the case). Null: head office only. */
    routeBranchId: uuid("route_branch_id").references(() => branches.id, { onDelete: "restrict" }),
    /** Staff cases: the member concerned, who never sees the case nor decides it. */
    subjectUserId: text("subject_user_id"),
    severity: riskSeverity("severity").notNull(),
    state: riskCaseState("state").notNull().default("open"),
    assigneeUserId: text("assignee_user_id"),
    openedAt: timestamp("opened_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: updatedAt(),
    /** When the escalation said suspicion was formed: the 24-hour reporting clock runs from here. */
    suspicionFormedAt: timestamp("suspicion_formed_at", { withTimezone: true }),
    /**
     * A closing that needs a second person (a high or staff case, by any path: cleared, reported,
     * not reported): who proposed which closing, when and why. The columns kept their first names
     * (clearing was the first such path); `close_proposed_state` says which closing it is.
     */
    closeProposedState: riskCaseState("close_proposed_state"),
    closeProposedByUserId: text("clear_proposed_by_user_id"),
    closeProposedAt: timestamp("clear_proposed_at", { withTimezone: true }),
    closeProposedReason: text("clear_proposed_reason"),
    decidedByUserId: text("decided_by_user_id"),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    decisionReason: text("decision_reason"),
  },
  (table) => [
    // One case open per subject: new alerts join it.
    uniqueIndex("risk_cases_open_subject_idx").on(table.subjectType, table.subjectKey).where(sql`state in ('open', 'in_review', 'escalated')`),
    index("risk_cases_state_opened_idx").on(table.state, table.openedAt),
  ],
);

export const riskAlerts = pgTable(
  "risk_alerts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    ruleKey: text("rule_key").notNull(),
    ruleVersionId: uuid("rule_version_id")
      .notNull()
      .references(() => riskRuleVersions.id, { onDelete: "restrict" }),
    ruleVersion: integer("rule_version").notNull(),
    params: jsonb("params").$type<Record<string, unknown>>().notNull(),
    severity: riskSeverity("severity").notNull(),
    /** `shadow` alerts are counted for tuning and never join a case. */
    mode: riskRuleMode("mode").notNull(),
    subjectType: text("subject_type").notNull(),
    subjectKey: text("subject_key").notNull(),
    caseId: uuid("case_id").references(() => riskCases.id, { onDelete: "restrict" }),
    isOpen: boolean("is_open").notNull().default(true),
    /** The tokens and audit events it matched, so far. */
    tokenIds: jsonb("token_ids").$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    auditEventIds: jsonb("audit_event_ids").$type<number[]>().notNull().default(sql`'[]'::jsonb`),
    counts: jsonb("counts").$type<Record<string, number>>().notNull().default(sql`'{}'::jsonb`),
    /** Why, in one sentence with masked values only. */
    sentence: text("sentence").notNull(),
    firstHitAt: timestamp("first_hit_at", { withTimezone: true }).notNull().defaultNow(),
    lastHitAt: timestamp("last_hit_at", { withTimezone: true }).notNull().defaultNow(),
    hits: integer("hits").notNull().default(1),
  },
  (table) => [
    uniqueIndex("risk_alerts_open_subject_idx").on(table.ruleKey, table.subjectType, table.subjectKey, table.mode).where(sql`is_open`),
    index("risk_alerts_case_idx").on(table.caseId),
  ],
);

/** Notes on a case: append-only (a trigger of migration `risk-rules-and-cases` refuses UPDATE and DELETE). */
export const riskCaseNotes = pgTable(
  "risk_case_notes",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    caseId: uuid("case_id")
      .notNull()
      .references(() => riskCases.id, { onDelete: "restrict" }),
    authorUserId: text("author_user_id").notNull(),
    authorLabel: text("author_label").notNull(),
    body: text("body").notNull(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("risk_case_notes_case_idx").on(table.caseId, table.at)],
);

/**
 * The tokens a case holds as evidence: retention and erasure skip a token while an open case holds
 * it. A hold of its own, not the visible `legal_hold_at`, so nothing on a teller's screens changes.
 */
export const riskCaseTokens = pgTable(
  "risk_case_tokens",
  {
    caseId: uuid("case_id")
      .notNull()
      .references(() => riskCases.id, { onDelete: "restrict" }),
    tokenRequestId: uuid("token_request_id")
      .notNull()
      .references(() => tokenRequests.id, { onDelete: "restrict" }),
    heldAt: timestamp("held_at", { withTimezone: true }).notNull().defaultNow(),
    releasedAt: timestamp("released_at", { withTimezone: true }),
  },
  (table) => [primaryKey({ columns: [table.caseId, table.tokenRequestId] }), index("risk_case_tokens_held_idx").on(table.tokenRequestId).where(sql`released_at is null`)],
);

export type RiskRuleVersion = typeof riskRuleVersions.$inferSelect;
export type RiskAlert = typeof riskAlerts.$inferSelect;
export type RiskCase = typeof riskCases.$inferSelect;
export type RiskCaseNote = typeof riskCaseNotes.$inferSelect;

// ─── Webhooks to the bank (docs/webhooks.md) ─────────────────────────────────────────────────────
// Endpoints of the bank's systems that hear when a verification ends, signed per Standard Webhooks.
// A new endpoint added on the admin page waits for a second administrator (ADR 0020): it receives
// customer outcomes. Deliveries are a transactional outbox: the row is written in the transaction
// that closes the token, and a worker leases it (SKIP LOCKED, as the watcher leases tokens), sends
// it, and records every attempt. lib/webhooks writes all three.

export const webhookEndpointStatus = pgEnum("webhook_endpoint_status", ["pending", "active", "disabled", "rejected"]);
export const webhookDeliveryStatus = pgEnum("webhook_delivery_status", ["pending", "delivered", "failed"]);

export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    url: text("url").notNull(),
    description: text("description").notNull().default(""),
    /** The event types it receives (`token.finished`); `webhook.test` goes to any endpoint on request. */
    events: jsonb("events").$type<string[]>().notNull(),
    status: webhookEndpointStatus("status").notNull().default("pending"),
    /**
     * The `whsec_` secret, AES-256-GCM with the personal-data key, bound to this row. Made when a
     * second administrator approves the endpoint and shown to them alone (ADR 0052): null while it
     * waits, and for ever on a rejected one, so no proposer ever held a secret the receiver trusts.
     */
    secretEncrypted: text("secret_encrypted"),
    /** The secret before the last rotation: deliveries carry both signatures until the time below. */
    previousSecretEncrypted: text("previous_secret_encrypted"),
    previousSecretUntil: timestamp("previous_secret_until", { withTimezone: true }),
    /** Null when added from the command line by an operator. */
    proposedByUserId: text("proposed_by_user_id"),
    proposedByUsername: text("proposed_by_username").notNull(),
    proposedAt: timestamp("proposed_at", { withTimezone: true }).notNull().defaultNow(),
    decidedByUserId: text("decided_by_user_id"),
    decidedByUsername: text("decided_by_username"),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    /** The first failed attempt since the last success: five days of it disable the endpoint. */
    failingSince: timestamp("failing_since", { withTimezone: true }),
    disabledAt: timestamp("disabled_at", { withTimezone: true }),
    /** Why: `gone` (answered 410), `failing` (five days), or `admin`. */
    disabledReason: text("disabled_reason"),
    /**
     * A new URL one administrator proposed: it sends customer outcomes somewhere else, so a second
     * administrator must approve it before deliveries go there (until then they go to `url`).
     */
    proposedUrl: text("proposed_url"),
    urlProposedByUserId: text("url_proposed_by_user_id"),
    urlProposedByUsername: text("url_proposed_by_username"),
    urlProposedAt: timestamp("url_proposed_at", { withTimezone: true }),
  },
  (table) => [
    index("webhook_endpoints_status_idx").on(table.status),
    // The floor under approveEndpoint: whatever writes the row, nothing sends unsigned.
    check("webhook_endpoints_active_has_secret", sql`${table.status} <> 'active' OR ${table.secretEncrypted} IS NOT NULL`),
  ],
);

export const webhookSecretRotationStatus = pgEnum("webhook_secret_rotation_status", ["pending", "approved", "rejected", "cancelled"]);

/**
 * A new signing secret for an endpoint, proposed by one administrator: whoever holds the secret
 * can sign deliveries the bank's receiver believes, so a second administrator (never the proposer)
 * approves it, and only they are shown the new secret, once (ADR 0052). One waits per endpoint.
 */
export const webhookSecretRotations = pgTable(
  "webhook_secret_rotations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    endpointId: uuid("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    /** How long the old secret keeps signing beside the new one, from the approval. */
    overlapHours: integer("overlap_hours").notNull(),
    status: webhookSecretRotationStatus("status").notNull().default("pending"),
    proposedByUserId: text("proposed_by_user_id").notNull(),
    proposedByUsername: text("proposed_by_username").notNull(),
    proposedAt: timestamp("proposed_at", { withTimezone: true }).notNull().defaultNow(),
    decidedByUserId: text("decided_by_user_id"),
    decidedByUsername: text("decided_by_username"),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
  },
  (table) => [uniqueIndex("webhook_secret_rotations_one_waiting_idx").on(table.endpointId).where(sql`status = 'pending'`)],
);

export type WebhookSecretRotation = typeof webhookSecretRotations.$inferSelect;

export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    /** The `webhook-id` is `msg_` and this id: the same on every attempt, the receiver's dedupe key. */
    id: uuid("id").primaryKey().defaultRandom(),
    endpointId: uuid("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    eventType: text("event_type").notNull(),
    /** The token the event is about; the reference is read from its row (encrypted) when sending. */
    tokenRequestId: uuid("token_request_id").references(() => tokenRequests.id, { onDelete: "set null" }),
    /** The event's body without the reference, fixed when the event happened. */
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    occurredAt: timestamp("occurred_at", { withTimezone: true }).notNull(),
    status: webhookDeliveryStatus("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull(),
    leaseOwner: text("lease_owner"),
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true }),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    index("webhook_deliveries_due_idx").on(table.nextAttemptAt).where(sql`status = 'pending'`),
    index("webhook_deliveries_endpoint_idx").on(table.endpointId, table.createdAt),
    // One event per token and endpoint, whatever path closed the token.
    uniqueIndex("webhook_deliveries_token_event_idx").on(table.endpointId, table.eventType, table.tokenRequestId).where(sql`token_request_id IS NOT NULL`),
  ],
);

export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    deliveryId: uuid("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    attemptNumber: integer("attempt_number").notNull(),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull(),
    latencyMs: integer("latency_ms").notNull(),
    /** The HTTP status; null when no answer came (refused address, timeout, connection error). */
    statusCode: integer("status_code"),
    error: text("error"),
    /** The first 1,000 characters of the answer's body. */
    responseExcerpt: text("response_excerpt"),
  },
  (table) => [index("webhook_attempts_delivery_idx").on(table.deliveryId, table.startedAt)],
);

export type WebhookEndpoint = typeof webhookEndpoints.$inferSelect;
export type WebhookDelivery = typeof webhookDeliveries.$inferSelect;
export type WebhookAttempt = typeof webhookAttempts.$inferSelect;

// ─── The integration API's keys (ADR 0044, lib/api) ──────────────────────────────────────────────
// A named integration of the bank (not a person) calls /api/v1 with a key. Only the key's SHA-256
// is stored; the key itself is shown once. A key acts through its own user row (no password, no
// staff profile: it cannot sign in), so the tokens it issues name the integration as issuer.
// Creating one is a grant of customer data: one administrator proposes (status `pending`, no key
// yet), a second approves (the key is made then). Idempotent answers and the per-key rate limit
// live in the database so that every instance sees the same ones.

export const apiKeyStatus = pgEnum("api_key_status", ["pending", "active", "rejected", "cancelled"]);

export const apiKeys = pgTable(
  "api_keys",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** The integration's name ("Onboarding app"): the audit's actor for everything the key does. */
    name: text("name").notNull(),
    /** `live` or `test`: the key's prefix (`vdk_live_`, `vdk_test_`). */
    environment: text("environment").notNull(),
    status: apiKeyStatus("status").notNull().default("pending"),
    /** Hex SHA-256 of the whole key; null until approved. */
    keyHash: text("key_hash").unique(),
    /** What admins see to tell keys apart: the prefix and the last four characters. */
    keyHint: text("key_hint"),
    /** The integration's user row (auth_users): shared by a key and the keys rolled from it. */
    serviceUserId: text("service_user_id").references(() => authUsers.id, { onDelete: "restrict" }),
    scopes: text("scopes").array().notNull(),
    branchIds: uuid("branch_ids").array().notNull(),
    /** Requests allowed per minute (each token costs the bank an SMS). */
    rateLimitPerMinute: integer("rate_limit_per_minute").notNull().default(60),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /** The key this one replaces (a roll): the old one keeps working until its shortened expiry. */
    rolledFromId: uuid("rolled_from_id"),
    proposedByUserId: text("proposed_by_user_id").notNull(),
    proposedByUsername: text("proposed_by_username").notNull(),
    proposedAt: timestamp("proposed_at", { withTimezone: true }).notNull().defaultNow(),
    decidedByUserId: text("decided_by_user_id"),
    decidedByUsername: text("decided_by_username"),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    revokedByUsername: text("revoked_by_username"),
    /** Written at most once a minute per key, not on every request. */
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  },
  (table) => [index("api_keys_status_idx").on(table.status, table.proposedAt)],
);

export type ApiKey = typeof apiKeys.$inferSelect;

/**
 * The answers to `Idempotency-Key` requests, per integration (a rolled key replays its
 * predecessor's): `in_flight` until the answer is stored; kept a day.
 */
export const apiIdempotency = pgTable(
  "api_idempotency",
  {
    serviceUserId: text("service_user_id").notNull(),
    idempotencyKey: text("idempotency_key").notNull(),
    /** SHA-256 of the method, path and canonical body: the same key with another body is refused. */
    requestHash: text("request_hash").notNull(),
    status: text("status").notNull().default("in_flight"),
    responseStatus: integer("response_status"),
    responseBody: jsonb("response_body"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** An in-flight claim older than this belongs to a process that died: a retry may take it over. */
    lockedUntil: timestamp("locked_until", { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.serviceUserId, table.idempotencyKey] }), index("api_idempotency_created_idx").on(table.createdAt)],
);

/** Requests per key per minute: one row per key and window, counted by an upsert. */
export const apiRateWindows = pgTable(
  "api_rate_windows",
  {
    apiKeyId: uuid("api_key_id").notNull(),
    windowStartedAt: timestamp("window_started_at", { withTimezone: true }).notNull(),
    requests: integer("requests").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.apiKeyId, table.windowStartedAt] })],
);
