import { Ban, Building2, CheckCircle2, Crown, Eye, FlaskConical, KeyRound, UserRound } from "lucide-react";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { roleLabels, type StaffRole } from "@/lib/domain/staff-roles";

const roleLooks: Record<StaffRole, { tone: BadgeTone; icon: typeof UserRound }> = {
  teller: { tone: "neutral", icon: UserRound },
  supervisor: { tone: "info", icon: Eye },
  head_office_supervisor: { tone: "brand", icon: Building2 },
  admin: { tone: "warning", icon: Crown },
};

export function RoleBadge({ role }: { role: StaffRole }) {
  const look = roleLooks[role];
  return (
    <Badge tone={look.tone} icon={look.icon}>
      {roleLabels[role]}
    </Badge>
  );
}

export function AccountStatusBadge({ isDisabled }: { isDisabled: boolean }) {
  return isDisabled ? (
    <Badge tone="danger" icon={Ban}>
      Disabled
    </Badge>
  ) : (
    <Badge tone="success" icon={CheckCircle2}>
      Active
    </Badge>
  );
}

export function DemoBadge() {
  return (
    <Badge tone="neutral" icon={FlaskConical}>
      Demo
    </Badge>
  );
}

/** Holds a temporary password: must choose their own at the next sign-in. */
export function TemporaryPasswordBadge() {
  return (
    <Badge tone="warning" icon={KeyRound}>
      Temporary password
    </Badge>
  );
}
