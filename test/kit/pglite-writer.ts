/**
 * A second Veridesk process for pglite-lock.integration.test.ts: opens a PGlite data directory the
 * way every process does, writes one branch, then closes — or, with "hold", keeps it open until
 * signalled. Prints "opened" once it holds the database; a refusal goes to stderr with exit code 3.
 *
 *   tsx --conditions=react-server test/kit/pglite-writer.ts <dataDir> <branchCode> [hold]
 */
import { isAppError } from "@/lib/errors";
import { openDatabase } from "@/lib/db/client";
import { branches } from "@/lib/db/schema";

const [dataDir, branchCode, mode] = process.argv.slice(2);
if (!dataDir || !branchCode) throw new Error("usage: open-and-write.ts <dataDir> <branchCode> [hold]");

try {
  const opened = await openDatabase({ pgliteDataDir: dataDir, label: "open-and-write test fixture" });
  process.stdout.write("opened\n");
  await opened.db.insert(branches).values({ code: branchCode, name: `Written by pid ${process.pid}` });
  if (mode === "hold") {
    process.stdout.write("holding\n");
    setInterval(() => undefined, 60_000);
  } else {
    await opened.close();
  }
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(isAppError(error) ? 3 : 1);
}
