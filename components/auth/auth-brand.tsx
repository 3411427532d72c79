import { ShieldCheck } from "lucide-react";

/** The Veridesk name above the signed-out cards (sign-in, choosing a new password). */
export function AuthBrand({ bankName }: { bankName: string }) {
  return (
    <div className="flex items-center gap-3 text-brand-800">
      <ShieldCheck aria-hidden className="size-10" />
      <div>
        <p className="text-3xl font-bold tracking-tight">Veridesk</p>
        <p className="text-ink-muted">{bankName} · identity verification desk</p>
      </div>
    </div>
  );
}
