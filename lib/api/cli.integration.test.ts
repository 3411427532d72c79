import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { apiKeys, auditEvents } from "@/lib/db/schema";
import { aBranch } from "@/test/kit/builders";
import { makeScratchDatabase, pgliteDataDirOf, scratchPiiKeys } from "@/test/kit/database";
import { runOperatorScript } from "@/test/kit/operator-scripts";
import { hashApiKey } from "./key-format";
import { authenticateApiKey } from "./keys";
import { listPurposesRoute } from "./route";

/**
 * `npm run api-key:create` on the embedded database before the app starts: the key printed as the
 * last line is the only copy (the database holds its hash), and it opens the API with the scopes
 * and branches given; a wrong flag says what is wrong, with the usage, and exits 1.
 */

const keys = scratchPiiKeys();

const runCreate = (pgliteDataDir: string, args: string[]) => runOperatorScript("scripts/api-key-create.ts", args, { pgliteDataDir, keys });

describe("npm run api-key:create", () => {
  it("prints a working key last, stores only its hash, and refuses bad flags with a message and exit 1", async () => {
    const scratch = await makeScratchDatabase({ driver: "pglite", name: "api-key-cli" });
    try {
      const setup = await scratch.open("before api-key:create");
      let accraId: string;
      try {
        accraId = (await aBranch(setup.db, { code: "ACC", name: "Accra – Head Office" })).id;
        await aBranch(setup.db, { code: "KUM", name: "Kumasi – Adum" });
      } finally {
        await setup.close();
      }
      const dataDir = pgliteDataDirOf(scratch);

      const made = runCreate(dataDir, ["--name", "Onboarding app", "--scopes", "tokens:write,tokens:read", "--branches", "ACC"]);
      expect(made.status, made.stderr).toBe(0);
      const key = made.stdout.trim().split("\n").at(-1)!;
      expect(key).toMatch(/^vdk_test_[0-9A-Za-z]{46}$/);
      expect(made.stdout.split(key)).toHaveLength(2); // printed once

      const refusals = [
        { args: ["--name", "Onboarding app", "--scopes", "tokens:write"], message: /Missing --branches\.[\s\S]*Usage: npm run api-key:create/ },
        { args: ["--name", "Onboarding app", "--scopes", "tokens:delete", "--branches", "ACC"], message: /Unknown scope "tokens:delete"/ },
        { args: ["--name", "Onboarding app", "--scopes", "tokens:read", "--branches", "XYZ"], message: /No branch with code XYZ\. Known branches: ACC, KUM/ },
        { args: ["--name", "Onboarding app", "--scope", "tokens:read", "--branches", "ACC"], message: /Unknown option '--scope'[\s\S]*Usage:/ },
      ];
      for (const refusal of refusals) {
        const refused = runCreate(dataDir, refusal.args);
        expect(refused.status, refusal.args.join(" ")).toBe(1);
        expect(refused.stderr).toMatch(/^api-key:create failed\./);
        expect(refused.stderr).toMatch(refusal.message);
        expect(refused.stdout).not.toMatch(/vdk_/);
      }

      const opened = await scratch.open("after api-key:create");
      try {
        const rows = await opened.db.select().from(apiKeys);
        expect(rows).toHaveLength(1);
        expect(rows[0]).toMatchObject({ name: "Onboarding app", status: "active", environment: "test", keyHash: hashApiKey(key), scopes: ["tokens:write", "tokens:read"], branchIds: [accraId!] });
        // Only the hash: the key is nowhere in the database, in any table.
        const dump = await opened.db.execute(sql`SELECT count(*)::int AS hits FROM (SELECT row_to_json(k)::text AS t FROM api_keys k UNION ALL SELECT row_to_json(a)::text FROM audit_events a) rows WHERE t LIKE ${`%${key.slice(9, 29)}%`}`);
        expect((dump as unknown as { rows: Array<{ hits: number }> }).rows[0]!.hits).toBe(0);
        const [audit] = await opened.db.select().from(auditEvents).where(eq(auditEvents.action, "api_key.create"));
        expect(audit).toMatchObject({ actorLabel: "api-key:create" });

        expect(await authenticateApiKey(opened.db, `Bearer ${key}`, new Date(), { refuseTestKeys: false })).toMatchObject({ name: "Onboarding app", branchIds: [accraId!] });
        const purposes = await listPurposesRoute(async () => ({ db: opened.db, keys }))(
          new Request("http://veridesk.test/api/v1/purposes", { headers: { authorization: `Bearer ${key}` } }),
          { params: undefined },
        );
        expect(purposes.status).toBe(200);
        expect(await purposes.json()).toMatchObject({ consent: { version: expect.any(Number) } });
      } finally {
        await opened.close();
      }
    } finally {
      await scratch.destroy();
    }
    // Five processes, the first of which opens a database another process migrated: slow on a busy two-core machine.
  }, 180_000);
});
