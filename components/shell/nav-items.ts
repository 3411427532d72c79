import { hasPermission, type Permission } from "@/lib/auth/permissions";
import type { StaffRole } from "@/lib/domain/staff-roles";

/**
 * The shell's navigation: one entry per area, shown only to roles with its permission (the same
 * permission the page itself requires). Later features add their entries here.
 */
export type NavIcon = "home" | "staff" | "branches" | "audit" | "new-token" | "tokens" | "review" | "purposes" | "compliance" | "operations" | "cases" | "webhooks" | "api-keys";

export type NavItem = { href: string; label: string; icon: NavIcon; permission: Permission | null };

export const navItems: readonly NavItem[] = [
  { href: "/", label: "Home", icon: "home", permission: null },
  { href: "/tokens/new", label: "New token", icon: "new-token", permission: "tokens.issue" },
  { href: "/tokens", label: "Tokens", icon: "tokens", permission: "tokens.view" },
  { href: "/review", label: "Review", icon: "review", permission: "tokens.export" },
  // Risk cases (ADR 0046): never a teller's, not even as a menu entry.
  { href: "/review/cases", label: "Cases", icon: "cases", permission: "risk.cases" },
  { href: "/admin/staff", label: "Staff", icon: "staff", permission: "staff.manage" },
  { href: "/admin/branches", label: "Branches", icon: "branches", permission: "staff.manage" },
  { href: "/admin/purposes", label: "Purposes", icon: "purposes", permission: "compliance.manage" },
  { href: "/admin/compliance", label: "Consent and retention", icon: "compliance", permission: "compliance.manage" },
  { href: "/admin/audit", label: "Audit trail", icon: "audit", permission: "audit.read" },
  { href: "/admin/api-keys", label: "API keys", icon: "api-keys", permission: "staff.manage" },
  { href: "/admin/webhooks", label: "Webhooks", icon: "webhooks", permission: "staff.manage" },
  { href: "/admin/operations", label: "Operations", icon: "operations", permission: "operations.view" },
];

export function navItemsFor(role: StaffRole): NavItem[] {
  return navItems.filter((item) => item.permission === null || hasPermission(role, item.permission));
}

/** The entry a path belongs to: the longest matching prefix ("/" only for itself). */
export function activeNavHref(pathname: string, items: readonly NavItem[]): string | undefined {
  return items
    .filter((item) => (item.href === "/" ? pathname === "/" : pathname === item.href || pathname.startsWith(`${item.href}/`)))
    .sort((a, b) => b.href.length - a.href.length)[0]?.href;
}
