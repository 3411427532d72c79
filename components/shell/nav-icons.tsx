import { Activity, BarChart3, Building2, ClipboardCheck, FilePlus2, Home, ListChecks, PlugZap, ScrollText, ShieldAlert, ShieldCheck, Users, Webhook, type LucideIcon } from "lucide-react";
import type { NavIcon } from "./nav-items";

const icons: Record<NavIcon, LucideIcon> = {
  home: Home,
  staff: Users,
  branches: Building2,
  audit: ScrollText,
  "new-token": FilePlus2,
  tokens: ListChecks,
  review: BarChart3,
  purposes: ClipboardCheck,
  compliance: ShieldCheck,
  operations: Activity,
  cases: ShieldAlert,
  webhooks: Webhook,
  "api-keys": PlugZap,
};

/**
 * A menu entry's icon, drawn on the server: the shell hands it to the navigation (a client
 * component) as markup, so no page loads the icons' code (ADR 0057).
 */
export function NavItemIcon({ icon }: { icon: NavIcon }) {
  const Icon = icons[icon];
  return <Icon aria-hidden className="size-5" />;
}
