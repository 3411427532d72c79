import { requestWith, signInByApi } from "./fixtures/auth";
import { resolveAction } from "./fixtures/server-actions";
import { demoAccount } from "@/lib/staff/demo-accounts";
import { expect, test } from "./support/session";

/**
 * What another site can make a signed-in browser do: nothing. A server action posted from
 * another origin is refused with 403 (Next's own refusal answered 500).
 */

test("a server action posted from another site answers 403, and the same call from Veridesk's own page still works", async () => {
  const supervisor = await requestWith(await signInByApi("supervisor.kumasi", demoAccount("supervisor.kumasi").password));
  const action = resolveAction({ file: "app/(staff)/review/reconciliation/actions.ts", name: "recordReconciliationPrintedAction" });
  const call = (origin: string | undefined) =>
    supervisor.post(action.pagePath, {
      headers: { "next-action": action.id, "content-type": "text/plain;charset=UTF-8", accept: "text/x-component", ...(origin ? { origin } : {}) },
      data: JSON.stringify([{ branchId: "6f1c2a34-5b6d-4e7f-8a9b-0c1d2e3f4a5b", day: "2026-11-02" }]),
      maxRedirects: 0,
    });
  for (const origin of ["https://evil.example", "null"]) {
    const refused = await call(origin);
    expect(refused.status(), origin).toBe(403);
    expect(await refused.text()).toBe("This request did not come from Veridesk's own pages.");
  }
  // From Veridesk itself the action runs (and refuses the other branch as "not found").
  const own = await call(process.env.APP_URL);
  expect(own.status()).toBe(200);
  expect(await own.text()).toContain('"code":"NOT_FOUND"');
  await supervisor.dispose();
});
