import { hasPermission, type Permission } from "@/lib/auth/permissions";
import type { StaffRole } from "@/lib/domain/staff-roles";

/** The big links of the home page, per permission: what a role starts its work with. */
export type HomeActionIcon = "fingerprint" | "remote" | "tokens" | "review" | "staff" | "branches" | "audit";

export type HomeAction = {
  href: string;
  title: string;
  text: string;
  icon: HomeActionIcon;
  permission: Permission;
  /** Not shown to roles with this permission (they have a better place for the same thing). */
  hiddenWith?: Permission;
};

export const homeActions: readonly HomeAction[] = [
  {
    href: "/tokens/new/fingerprint",
    title: "New fingerprint token",
    text: "For a customer at the counter with a Ghana Card: the token goes to the fingerprint scanner.",
    icon: "fingerprint",
    permission: "tokens.issue",
  },
  {
    href: "/tokens/new/remote",
    title: "New remote token",
    text: "The customer verifies from their phone: the link goes out by SMS (and e-mail if you wish).",
    icon: "remote",
    permission: "tokens.issue",
  },
  {
    href: "/tokens",
    title: "Today's tokens",
    text: "Every token of your branch today, with its state — check here before trying again.",
    icon: "tokens",
    permission: "tokens.view",
    hiddenWith: "tokens.export",
  },
  {
    href: "/review",
    title: "Review tokens",
    text: "Outcomes with filters and search, figures per branch and teller, CSV export.",
    icon: "review",
    permission: "tokens.export",
  },
  {
    href: "/admin/staff",
    title: "Staff accounts",
    text: "Create accounts, change roles and branches, disable an account, reset a password.",
    icon: "staff",
    permission: "staff.manage",
  },
  {
    href: "/admin/branches",
    title: "Branches",
    text: "Add a branch or correct a branch's name.",
    icon: "branches",
    permission: "staff.manage",
  },
  {
    href: "/admin/audit",
    title: "Audit trail",
    text: "Who signed in, who changed what, and when.",
    icon: "audit",
    permission: "audit.read",
  },
];

export function homeActionsFor(role: StaffRole): HomeAction[] {
  return homeActions.filter(
    (action) => hasPermission(role, action.permission) && !(action.hiddenWith && hasPermission(role, action.hiddenWith)),
  );
}
