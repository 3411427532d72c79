/**
 * Prints the token requests of an embedded database that are under a watcher's lease, as JSON:
 * `npx tsx --conditions=react-server e2e/support/read-leases.ts <pglite dir>`. The graceful
 * shutdown spec reads it after the app has stopped (a spec cannot open the database itself:
 * lib/db is server-only).
 */
import { isNotNull } from "drizzle-orm";
import { openDatabase } from "@/lib/db/client";
import { tokenRequests } from "@/lib/db/schema";

const dataDir = process.argv[2];
if (!dataDir) throw new Error("usage: read-leases.ts <pglite dir>");
const opened = await openDatabase({ pgliteDataDir: dataDir, label: "e2e lease check" });
try {
  const leased = await opened.db
    .select({ token: tokenRequests.token, leaseOwner: tokenRequests.leaseOwner })
    .from(tokenRequests)
    .where(isNotNull(tokenRequests.leaseOwner));
  console.log(JSON.stringify(leased));
} finally {
  await opened.close();
}
