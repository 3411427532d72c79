import { redirect } from "next/navigation";
import { requirePermission } from "@/lib/auth/pages";

export const dynamic = "force-dynamic";

/** "New token" starts on the fingerprint form; the tabs there switch to remote. */
export default async function NewTokenPage() {
  await requirePermission("tokens.issue");
  redirect("/tokens/new/fingerprint");
}
