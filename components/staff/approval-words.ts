import { roleLabels, STAFF_ROLES, type StaffRole } from "@/lib/domain/staff-roles";
import { decideGrant } from "@/lib/staff/separation-of-duties";

/**
 * What creating an account of each role takes, in words, from the same rule the server applies
 * (decideGrant, ADR 0020), so the Add staff page can never again promise a sign-in that an
 * approval stands in front of. Plain data: the page (server) and the form (client) both read it.
 */
export function approvalToCreate(role: StaffRole): "customer_data" | "administrator" | null {
  const decision = decideGrant({ actorUserId: "the administrator", subjectUserId: null, before: null, after: { role, branchId: "their branch" } });
  return decision.kind === "needs_second_admin" ? decision.reason : null;
}

const listWords = (labels: string[]) => (labels.length <= 1 ? (labels[0] ?? "") : `${labels.slice(0, -1).join(", ")} and ${labels.at(-1)}`);

/** The Add staff page's promise: which of the form's roles wait for a second administrator, and why. */
export function describeCreateApprovals(): string {
  const seesCustomers = STAFF_ROLES.filter((role) => approvalToCreate(role) === "customer_data").map((role) => roleLabels[role]);
  const administers = STAFF_ROLES.filter((role) => approvalToCreate(role) === "administrator").map((role) => roleLabels[role]);
  const direct = STAFF_ROLES.filter((role) => approvalToCreate(role) === null).map((role) => roleLabels[role]);
  const waiting = [
    seesCustomers.length > 0 ? `${listWords(seesCustomers)} (${seesCustomers.length === 1 ? "sees" : "see"} customer data)` : null,
    administers.length > 0 ? `${listWords(administers)} (manages staff)` : null,
  ].filter((part): part is string => part !== null);
  const waits =
    waiting.length === 0
      ? ""
      : `${direct.length === 0 ? "Every role waits" : `${listWords(waiting)} ${waiting.length === 1 && seesCustomers.length + administers.length === 1 ? "waits" : "wait"}`} for a second administrator's approval${direct.length === 0 ? `: ${listWords(waiting)}` : ""}. Until then the account does not exist and cannot sign in.`;
  const signsIn = direct.length > 0 ? ` ${listWords(direct)} can sign in as soon as the account is created.` : "";
  return `${waits}${signsIn}`.trim();
}

/** The hint under the role once one is chosen. */
export function describeRoleApproval(role: StaffRole): string {
  const reason = approvalToCreate(role);
  if (reason === "customer_data") return `${roleLabels[role]} sees customer data: the account is created only when a second administrator approves it.`;
  if (reason === "administrator") return `${roleLabels[role]} manages staff: the account is created only when a second administrator approves it.`;
  return `${roleLabels[role]}: the account can sign in as soon as it is created.`;
}
