import { requestWith, signInByApi } from "@/e2e/support/auth";
import { demoAccount } from "@/lib/staff/demo-accounts";
import { expect, test } from "./support/session";

/**
 * A review page asked for a branch that does not exist (a stale or hand-made link) answers "not
 * found", never a 500 and never an empty page that reads as "this branch had no tokens". A
 * branch supervisor's pages are their own branch's whatever the link says.
 */

const unknownBranch = "6f1c2a34-5b6d-4e7f-8a9b-0c1d2e3f4a5b";
const pages = ["/review/reconciliation", "/review/figures", "/review"];

test("head office: an unknown branch id is 404 on the end-of-day sheet, the figures and the review list; a real one opens", async () => {
  const hq = await requestWith(await signInByApi("supervisor.hq", demoAccount("supervisor.hq").password));
  const page = await hq.get("/review/reconciliation");
  expect(page.status()).toBe(200);
  const realBranch = /<option value="([0-9a-f-]{36})"/.exec(await page.text())?.[1];
  expect(realBranch, "the branch picker offers a branch").toBeTruthy();
  for (const path of pages) {
    const unknown = await hq.get(`${path}?branch=${unknownBranch}`, { maxRedirects: 0 });
    expect(unknown.status(), `${path} with an unknown branch`).toBe(404);
    expect(await unknown.text()).not.toContain("Something went wrong");
    expect((await hq.get(`${path}?branch=${realBranch}`, { maxRedirects: 0 })).status(), `${path} with a real branch`).toBe(200);
    // Not an id at all: the filter is dropped, as every malformed query value is.
    expect((await hq.get(`${path}?branch=not-a-branch`, { maxRedirects: 0 })).status(), `${path} with a malformed branch`).toBe(200);
  }
  await hq.dispose();
});

test("a branch supervisor's review pages stay on their branch, whatever branch the link names", async () => {
  const kumasi = await requestWith(await signInByApi("supervisor.kumasi", demoAccount("supervisor.kumasi").password));
  for (const path of pages) expect((await kumasi.get(`${path}?branch=${unknownBranch}`, { maxRedirects: 0 })).status(), path).toBe(200);
  await kumasi.dispose();
});
