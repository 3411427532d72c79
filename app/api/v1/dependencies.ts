import type { ApiDependencies } from "@/lib/api/tokens";
import { getDb } from "@/lib/db/client";
import { env } from "@/lib/env";

/** What the /api/v1 handlers run with in the app: the process's database, service and keys. */
export async function apiDependencies(): Promise<ApiDependencies> {
  return { db: await getDb(), refuseTestKeys: env().APP_ENV === "production" };
}
