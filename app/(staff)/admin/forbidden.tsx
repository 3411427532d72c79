import { ShieldX } from "lucide-react";
import Link from "next/link";

/** What a role sees on an admin page it may not use (HTTP 403, via `forbidden()`). */
export default function AdminForbidden() {
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center gap-4 py-16 text-center">
      <ShieldX aria-hidden className="size-12 text-danger-600" />
      <h1 className="text-2xl font-bold">This page is not for your role</h1>
      <p className="text-ink-muted">If you need it for your work, ask your administrator.</p>
      <Link href="/" className="font-semibold text-brand-700 underline-offset-4 hover:underline">
        Back to your home page
      </Link>
    </div>
  );
}
