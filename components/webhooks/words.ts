import type { BadgeTone } from "@/components/ui/badge";

/** The words of the webhook pages for an endpoint's and a delivery's status. */

export const endpointStatusBadges: Record<"pending" | "active" | "disabled" | "rejected", { label: string; tone: BadgeTone }> = {
  pending: { label: "Waiting for approval", tone: "warning" },
  active: { label: "Active", tone: "success" },
  disabled: { label: "Disabled", tone: "danger" },
  rejected: { label: "Rejected", tone: "neutral" },
};

export const deliveryStatusBadges: Record<"pending" | "delivered" | "failed", { label: string; tone: BadgeTone }> = {
  pending: { label: "Waiting", tone: "warning" },
  delivered: { label: "Delivered", tone: "success" },
  failed: { label: "Failed", tone: "danger" },
};

export const disabledReasonWords: Record<string, string> = {
  gone: "The receiver answered 410 Gone",
  failing: "Five days of failed deliveries",
  admin: "Disabled by an administrator",
};
