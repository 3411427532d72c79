import { hasPermission, rolesWith, type Permission } from "@/lib/auth/permissions";
import { STAFF_ROLES, type StaffRole } from "@/lib/domain/staff-roles";

/**
 * Every page, route handler and server action of Veridesk, with who may use it. The
 * role-refusal suite (role-refusal.spec.ts) walks app/ and FAILS when something exists that is
 * not listed here, then proves each entry refuses everyone else: signed out → sign-in page / 401 /
 * UNAUTHENTICATED; wrong role → 403 (or the "not for your role" redirect) / FORBIDDEN.
 *
 * Audiences come from the permission table (lib/auth/permissions.ts), the same one the code asks,
 * so a change of the table changes what is tested. Adding a page, route or action? Add it here.
 */

export type Audience =
  | { kind: "public"; why: string }
  | { kind: "staff"; permission: Permission | null; roles: readonly StaffRole[] };

const anyStaff: Audience = { kind: "staff", permission: null, roles: STAFF_ROLES };
const holders = (permission: Permission): Audience => ({ kind: "staff", permission, roles: rolesWith(permission) });
/** Risk rules are head office's: the risk permission over every branch (lib/risk/rule-versions.ts). */
const ruleManagers: Audience = { kind: "staff", permission: "risk.cases", roles: rolesWith("risk.cases").filter((role) => hasPermission(role, "branches.all")) };

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export type PageEntry = {
  /** The file, from the repository root. */
  file: string;
  audience: Audience;
  /** A concrete URL to request (dynamic segments filled with a value that need not exist). */
  url: string;
  /**
   * For a page showing one record of a branch: its URL for a given token request. The suite
   * creates a token in one branch and proves another branch's staff get "not found".
   */
  urlOfTokenRequest?: (tokenRequestId: string) => string;
};

export type RouteEntry = {
  file: string;
  url: string;
  methods: Partial<Record<HttpMethod, Audience>>;
  /** As for pages; only for routes whose methods all read (the suite calls each with the id). */
  urlOfTokenRequest?: (tokenRequestId: string) => string;
};

export type ActionEntry = {
  file: string;
  /** The exported name of the action. */
  name: string;
  audience: Audience;
  /**
   * False when even a refused-input probe by an allowed role would change something (signing
   * out ends the probing session): the suite then skips the "allowed role gets through" probe.
   */
  isSafeToProbe: boolean;
};

const SAMPLE_UUID = "00000000-0000-4000-8000-000000000000";

export const pages: PageEntry[] = [
  { file: "app/sign-in/page.tsx", url: "/sign-in", audience: { kind: "public", why: "where signed-out staff sign in" } },
  { file: "app/(staff)/page.tsx", url: "/", audience: anyStaff },
  // Opens only while a temporary password is held (e2e/auth-password-change.spec.ts); others go home.
  { file: "app/change-password/page.tsx", url: "/change-password", audience: anyStaff },
  // Setting up an authenticator app (held there when one is required and missing), and one's own sign-in security.
  { file: "app/second-factor/page.tsx", url: "/second-factor", audience: anyStaff },
  { file: "app/(staff)/account/security/page.tsx", url: "/account/security", audience: anyStaff },
  { file: "app/(staff)/admin/staff/page.tsx", url: "/admin/staff", audience: holders("staff.manage") },
  { file: "app/(staff)/admin/staff/new/page.tsx", url: "/admin/staff/new", audience: holders("staff.manage") },
  { file: "app/(staff)/admin/staff/[userId]/page.tsx", url: `/admin/staff/${SAMPLE_UUID}`, audience: holders("staff.manage") },
  { file: "app/(staff)/admin/branches/page.tsx", url: "/admin/branches", audience: holders("staff.manage") },
  { file: "app/(staff)/admin/api-keys/page.tsx", url: "/admin/api-keys", audience: holders("staff.manage") },
  { file: "app/api/v1/docs/page.tsx", url: "/api/v1/docs", audience: { kind: "public", why: "the API reference: renders the public OpenAPI document, no data" } },
  { file: "app/(staff)/admin/audit/page.tsx", url: "/admin/audit", audience: holders("audit.read") },
  { file: "app/(staff)/admin/purposes/page.tsx", url: "/admin/purposes", audience: holders("compliance.manage") },
  { file: "app/(staff)/admin/compliance/page.tsx", url: "/admin/compliance", audience: holders("compliance.manage") },
  { file: "app/(staff)/admin/operations/page.tsx", url: "/admin/operations", audience: holders("operations.view") },
  { file: "app/(staff)/admin/webhooks/page.tsx", url: "/admin/webhooks", audience: holders("staff.manage") },
  { file: "app/(staff)/admin/webhooks/[endpointId]/page.tsx", url: `/admin/webhooks/${SAMPLE_UUID}`, audience: holders("staff.manage") },
  { file: "app/(staff)/review/customer-records/page.tsx", url: "/review/customer-records", audience: holders("customers.records") },
  { file: "app/(staff)/review/cases/page.tsx", url: "/review/cases", audience: holders("risk.cases") },
  { file: "app/(staff)/review/cases/[caseId]/page.tsx", url: `/review/cases/${SAMPLE_UUID}`, audience: holders("risk.cases") },
  { file: "app/(staff)/review/rules/page.tsx", url: "/review/rules", audience: ruleManagers },
  { file: "app/(staff)/review/rules/[ruleKey]/page.tsx", url: "/review/rules/same_id_velocity", audience: ruleManagers },
  { file: "app/(staff)/tokens/page.tsx", url: "/tokens", audience: holders("tokens.view") },
  {
    file: "app/(staff)/tokens/[id]/page.tsx",
    url: `/tokens/${SAMPLE_UUID}`,
    audience: holders("tokens.view"),
    urlOfTokenRequest: (id) => `/tokens/${id}`,
  },
  {
    file: "app/(staff)/tokens/[id]/slip/page.tsx",
    url: `/tokens/${SAMPLE_UUID}/slip`,
    audience: holders("tokens.view"),
    urlOfTokenRequest: (id) => `/tokens/${id}/slip`,
  },
  { file: "app/(staff)/tokens/new/page.tsx", url: "/tokens/new", audience: holders("tokens.issue") },
  { file: "app/(staff)/tokens/new/fingerprint/page.tsx", url: "/tokens/new/fingerprint", audience: holders("tokens.issue") },
  { file: "app/(staff)/tokens/new/remote/page.tsx", url: "/tokens/new/remote", audience: holders("tokens.issue") },
  { file: "app/(staff)/review/page.tsx", url: "/review", audience: holders("tokens.export") },
  { file: "app/(staff)/review/figures/page.tsx", url: "/review/figures", audience: holders("tokens.export") },
  { file: "app/(staff)/review/reconciliation/page.tsx", url: "/review/reconciliation", audience: holders("tokens.export") },
  {
    file: "app/(staff)/review/tokens/[id]/page.tsx",
    url: `/review/tokens/${SAMPLE_UUID}`,
    audience: holders("tokens.export"),
    urlOfTokenRequest: (id) => `/review/tokens/${id}`,
  },
];

export const routes: RouteEntry[] = [
  {
    // Only POST /api/auth/sign-in/username reaches better-auth; every other path answers 404.
    file: "app/api/auth/[...all]/route.ts",
    url: "/api/auth/sign-in/username",
    methods: {
      GET: { kind: "public", why: "answers 404 for every path: no GET endpoint of better-auth is exposed" },
      POST: { kind: "public", why: "the sign-in endpoint itself" },
    },
  },
  { file: "app/api/auth/session/route.ts", url: "/api/auth/session", methods: { GET: anyStaff, POST: anyStaff } },
  // The second step of a password sign-in (lib/auth/two-factor): nothing without the pending sign-in's signed cookie.
  { file: "app/api/auth/[...all]/route.ts", url: "/api/auth/two-factor/verify-totp", methods: { POST: { kind: "public", why: "the authenticator code of a pending sign-in" } } },
  { file: "app/api/auth/[...all]/route.ts", url: "/api/auth/two-factor/verify-backup-code", methods: { POST: { kind: "public", why: "a backup code of a pending sign-in" } } },
  // Single sign-on (lib/auth/sso), through the same route: its start and the bank's answer. With SSO off
  // (as in this suite's app) both send the browser to the sign-in page.
  {
    file: "app/api/auth/[...all]/route.ts",
    url: "/api/auth/sso/sign-in/bank?next=/",
    methods: { GET: { kind: "public", why: "the start of a bank sign-in: a short-lived signed cookie and a redirect to the bank" } },
  },
  {
    file: "app/api/auth/[...all]/route.ts",
    url: "/api/auth/sso/callback/bank",
    methods: { GET: { kind: "public", why: "the bank's answer: nothing without the pending sign-in's cookie (refused; audited within a budget)" } },
  },
  // Passkeys (lib/auth/passkey), through the same route: a sign-in needs no session, the rest are one's own passkeys.
  { file: "app/api/auth/[...all]/route.ts", url: "/api/auth/passkey/generate-authentication-options", methods: { POST: { kind: "public", why: "a passkey sign-in's challenge: a short-lived signed cookie, nothing else" } } },
  { file: "app/api/auth/[...all]/route.ts", url: "/api/auth/passkey/verify-authentication", methods: { POST: { kind: "public", why: "the passkey sign-in itself" } } },
  { file: "app/api/auth/[...all]/route.ts", url: "/api/auth/passkey/generate-registration-options", methods: { POST: anyStaff } },
  { file: "app/api/auth/[...all]/route.ts", url: "/api/auth/passkey/verify-registration", methods: { POST: anyStaff } },
  { file: "app/api/auth/[...all]/route.ts", url: "/api/auth/passkey/list", methods: { GET: anyStaff } },
  { file: "app/api/auth/[...all]/route.ts", url: "/api/auth/passkey/remove", methods: { POST: anyStaff } },
  {
    file: "app/api/bench/ceiling/route.ts",
    url: "/api/bench/ceiling",
    methods: { GET: { kind: "public", why: "benchmark ceiling: 404 unless BENCH_CEILING_ROUTE, refused in production; constant JSON, no data" } },
  },
  { file: "app/api/health/live/route.ts", url: "/api/health/live", methods: { GET: { kind: "public", why: "liveness for the balancer and orchestrator: says only that the process answers" } } },
  {
    file: "app/api/health/ready/route.ts",
    url: "/api/health/ready",
    methods: { GET: { kind: "public", why: "readiness for the balancer: states of checks, no secret, no customer data" } },
  },
  {
    file: "app/api/metrics/route.ts",
    url: "/api/metrics",
    methods: { GET: { kind: "public", why: "Prometheus: 404 unless METRICS_TOKEN is set, then 401 without that bearer token; counts only (e2e/metrics.spec.ts)" } },
  },
  { file: "app/api/tokens/route.ts", url: "/api/tokens?scope=today", methods: { GET: holders("tokens.view") } },
  { file: "app/api/v1/tokens/route.ts", url: "/api/v1/tokens", methods: { GET: { kind: "public", why: "the integration API: an API key (Bearer), never a staff session; 401 problem details without one" }, POST: { kind: "public", why: "the integration API: an API key (Bearer), never a staff session; 401 problem details without one" } } },
  { file: "app/api/v1/tokens/[id]/route.ts", url: `/api/v1/tokens/${SAMPLE_UUID}`, methods: { GET: { kind: "public", why: "the integration API: an API key (Bearer), never a staff session; 401 problem details without one" } } },
  { file: "app/api/v1/purposes/route.ts", url: "/api/v1/purposes", methods: { GET: { kind: "public", why: "the integration API: an API key (Bearer), never a staff session; 401 problem details without one" } } },
  { file: "app/api/v1/openapi.json/route.ts", url: "/api/v1/openapi.json", methods: { GET: { kind: "public", why: "the OpenAPI document: the API's shape, no data" } } },
  { file: "app/api/v1/docs/standalone.js/route.ts", url: "/api/v1/docs/standalone.js", methods: { GET: { kind: "public", why: "the API reference's script, served by the app itself" } } },
  {
    file: "app/api/tokens/[id]/route.ts",
    url: `/api/tokens/${SAMPLE_UUID}`,
    methods: { GET: holders("tokens.view") },
    urlOfTokenRequest: (id) => `/api/tokens/${id}`,
  },
  // POST records a printed slip: its branch scope is proven by the slip's own spec, not by probing here.
  { file: "app/api/tokens/[id]/slip-printed/route.ts", url: `/api/tokens/${SAMPLE_UUID}/slip-printed`, methods: { POST: holders("tokens.view") } },
  { file: "app/api/review/export/route.ts", url: "/api/review/export", methods: { GET: holders("tokens.export") } },
  { file: "app/api/review/audit-export/route.ts", url: "/api/review/audit-export", methods: { GET: holders("audit.read") } },
  { file: "app/api/review/export-full/route.ts", url: "/api/review/export-full", methods: { POST: holders("tokens.export_full_ids") } },
];

export const actions: ActionEntry[] = [
  { file: "app/sign-in/actions.ts", name: "signOutAction", audience: anyStaff, isSafeToProbe: false },
  { file: "app/change-password/actions.ts", name: "changeTemporaryPasswordAction", audience: anyStaff, isSafeToProbe: true },
  { file: "app/second-factor/actions.ts", name: "startEnrolmentAction", audience: anyStaff, isSafeToProbe: true },
  { file: "app/second-factor/actions.ts", name: "confirmEnrolmentAction", audience: anyStaff, isSafeToProbe: true },
  { file: "app/(staff)/account/security/actions.ts", name: "renewBackupCodesAction", audience: anyStaff, isSafeToProbe: true },
  { file: "app/(staff)/admin/staff/actions.ts", name: "createStaffAction", audience: holders("staff.manage"), isSafeToProbe: true },
  { file: "app/(staff)/admin/staff/actions.ts", name: "updateStaffAction", audience: holders("staff.manage"), isSafeToProbe: true },
  { file: "app/(staff)/admin/staff/actions.ts", name: "setStaffDisabledAction", audience: holders("staff.manage"), isSafeToProbe: true },
  { file: "app/(staff)/admin/staff/actions.ts", name: "resetPasswordAction", audience: holders("staff.manage"), isSafeToProbe: true },
  // Separation of duties (ADR 0020): deciding on a proposed role grant.
  { file: "app/(staff)/admin/staff/actions.ts", name: "approveRoleChangeAction", audience: holders("staff.manage"), isSafeToProbe: true },
  { file: "app/(staff)/admin/staff/actions.ts", name: "rejectRoleChangeAction", audience: holders("staff.manage"), isSafeToProbe: true },
  { file: "app/(staff)/admin/staff/actions.ts", name: "cancelRoleChangeAction", audience: holders("staff.manage"), isSafeToProbe: true },
  { file: "app/(staff)/admin/staff/actions.ts", name: "proposeSecondFactorResetAction", audience: holders("staff.manage"), isSafeToProbe: true },
  { file: "app/(staff)/admin/staff/actions.ts", name: "approveSecondFactorResetAction", audience: holders("staff.manage"), isSafeToProbe: true },
  { file: "app/(staff)/admin/staff/actions.ts", name: "rejectSecondFactorResetAction", audience: holders("staff.manage"), isSafeToProbe: true },
  { file: "app/(staff)/admin/staff/actions.ts", name: "cancelSecondFactorResetAction", audience: holders("staff.manage"), isSafeToProbe: true },
  { file: "app/(staff)/admin/branches/actions.ts", name: "createBranchAction", audience: holders("staff.manage"), isSafeToProbe: true },
  { file: "app/(staff)/admin/branches/actions.ts", name: "renameBranchAction", audience: holders("staff.manage"), isSafeToProbe: true },
  { file: "app/(staff)/admin/webhooks/actions.ts", name: "createWebhookEndpointAction", audience: holders("staff.manage"), isSafeToProbe: true },
  { file: "app/(staff)/admin/webhooks/actions.ts", name: "decideWebhookEndpointAction", audience: holders("staff.manage"), isSafeToProbe: true },
  { file: "app/(staff)/admin/webhooks/actions.ts", name: "proposeWebhookUrlAction", audience: holders("staff.manage"), isSafeToProbe: true },
  { file: "app/(staff)/admin/webhooks/actions.ts", name: "decideWebhookUrlAction", audience: holders("staff.manage"), isSafeToProbe: true },
  { file: "app/(staff)/admin/webhooks/actions.ts", name: "sendWebhookTestAction", audience: holders("staff.manage"), isSafeToProbe: true },
  { file: "app/(staff)/admin/webhooks/actions.ts", name: "proposeSecretRotationAction", audience: holders("staff.manage"), isSafeToProbe: true },
  { file: "app/(staff)/admin/webhooks/actions.ts", name: "approveSecretRotationAction", audience: holders("staff.manage"), isSafeToProbe: true },
  { file: "app/(staff)/admin/webhooks/actions.ts", name: "rejectSecretRotationAction", audience: holders("staff.manage"), isSafeToProbe: true },
  { file: "app/(staff)/admin/webhooks/actions.ts", name: "cancelSecretRotationAction", audience: holders("staff.manage"), isSafeToProbe: true },
  { file: "app/(staff)/admin/webhooks/actions.ts", name: "setWebhookEndpointEnabledAction", audience: holders("staff.manage"), isSafeToProbe: true },
  { file: "app/(staff)/admin/webhooks/actions.ts", name: "resendWebhookDeliveryAction", audience: holders("staff.manage"), isSafeToProbe: true },
  { file: "app/(staff)/admin/webhooks/actions.ts", name: "recoverWebhookDeliveriesAction", audience: holders("staff.manage"), isSafeToProbe: true },
  { file: "app/(staff)/admin/purposes/actions.ts", name: "createPurposeAction", audience: holders("compliance.manage"), isSafeToProbe: true },
  { file: "app/(staff)/admin/purposes/actions.ts", name: "updatePurposeAction", audience: holders("compliance.manage"), isSafeToProbe: true },
  { file: "app/(staff)/tokens/new/fingerprint/actions.ts", name: "issueFingerprintTokenAction", audience: holders("tokens.issue"), isSafeToProbe: true },
  { file: "app/(staff)/tokens/new/remote/actions.ts", name: "issueRemoteTokenAction", audience: holders("tokens.issue"), isSafeToProbe: true },
  { file: "app/(staff)/tokens/[id]/actions.ts", name: "attachSmsTokenAction", audience: holders("tokens.recover"), isSafeToProbe: true },
  { file: "app/(staff)/review/actions.ts", name: "searchByIdNumberAction", audience: holders("tokens.export"), isSafeToProbe: true },
  { file: "app/(staff)/review/reconciliation/actions.ts", name: "recordReconciliationPrintedAction", audience: holders("tokens.export"), isSafeToProbe: true },
  { file: "app/(staff)/review/reconciliation/actions.ts", name: "signOffReconciliationAction", audience: holders("tokens.export"), isSafeToProbe: true },
  { file: "app/(staff)/review/tokens/[id]/actions.ts", name: "revealIdNumberAction", audience: holders("ids.reveal"), isSafeToProbe: true },
  { file: "app/(staff)/review/tokens/[id]/actions.ts", name: "placeLegalHoldAction", audience: holders("customers.records"), isSafeToProbe: true },
  { file: "app/(staff)/review/tokens/[id]/actions.ts", name: "releaseLegalHoldAction", audience: holders("customers.records"), isSafeToProbe: true },
  { file: "app/(staff)/admin/compliance/actions.ts", name: "publishConsentWordingAction", audience: holders("compliance.manage"), isSafeToProbe: true },
  { file: "app/(staff)/admin/api-keys/actions.ts", name: "proposeApiKeyAction", audience: holders("staff.manage"), isSafeToProbe: true },
  { file: "app/(staff)/admin/api-keys/actions.ts", name: "approveApiKeyAction", audience: holders("staff.manage"), isSafeToProbe: true },
  { file: "app/(staff)/admin/api-keys/actions.ts", name: "rejectApiKeyAction", audience: holders("staff.manage"), isSafeToProbe: true },
  { file: "app/(staff)/admin/api-keys/actions.ts", name: "cancelApiKeyAction", audience: holders("staff.manage"), isSafeToProbe: true },
  { file: "app/(staff)/admin/api-keys/actions.ts", name: "rollApiKeyAction", audience: holders("staff.manage"), isSafeToProbe: true },
  { file: "app/(staff)/admin/api-keys/actions.ts", name: "revokeApiKeyAction", audience: holders("staff.manage"), isSafeToProbe: true },
  { file: "app/(staff)/review/customer-records/actions.ts", name: "produceCustomerRecordAction", audience: holders("customers.records"), isSafeToProbe: true },
  { file: "app/(staff)/review/customer-records/actions.ts", name: "eraseOnRequestAction", audience: holders("customers.records"), isSafeToProbe: true },
  { file: "app/(staff)/review/cases/actions.ts", name: "addCaseNoteAction", audience: holders("risk.cases"), isSafeToProbe: true },
  { file: "app/(staff)/review/cases/actions.ts", name: "takeCaseAction", audience: holders("risk.cases"), isSafeToProbe: true },
  { file: "app/(staff)/review/cases/actions.ts", name: "decideCaseAction", audience: holders("risk.cases"), isSafeToProbe: true },
  { file: "app/(staff)/review/rules/actions.ts", name: "proposeRuleVersionAction", audience: ruleManagers, isSafeToProbe: true },
  { file: "app/(staff)/review/rules/actions.ts", name: "decideRuleVersionAction", audience: ruleManagers, isSafeToProbe: true },
  // Reads every branch's events: audit readers who see all branches. Any call runs the check (and records it).
  {
    file: "app/(staff)/admin/audit/actions.ts",
    name: "verifyAuditTrailAction",
    audience: { kind: "staff", permission: "audit.read", roles: rolesWith("audit.read").filter((role) => hasPermission(role, "branches.all")) },
    isSafeToProbe: false,
  },
];

/** The roles outside an audience (all of them for "public": none is refused). */
export function refusedRoles(audience: Audience): StaffRole[] {
  return audience.kind === "public" ? [] : STAFF_ROLES.filter((role) => !audience.roles.includes(role));
}
