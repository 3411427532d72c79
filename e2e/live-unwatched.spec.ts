import { newCustomer, secretFormsOf } from "./support/customers";
import { signInByApi, requestWith } from "@/e2e/support/auth";
import { expect, test } from "./support/session";
import { demoAccount } from "@/lib/staff/demo-accounts";
import { issueRemoteToken, sandboxPost, sandboxToken, statusPaths, statusCallsFor } from "@/e2e/support/live";
import type { LiveTokenResponse, TodayTokensResponse } from "@/lib/live/dto";

test("the outcome is recorded with no browser open, and the poll route serves it from the database", async ({ page }) => {
  const customer = newCustomer();
  const { id, token } = await issueRemoteToken(page, customer);
  const api = page.context().request;
  await page.close();

  // The customer finishes while nobody at the bank is looking.
  await sandboxPost(`/sandbox/api/tokens/${token}/use`);
  await sandboxPost(`/sandbox/api/tokens/${token}/result`, { status: "SUCCESSFUL" });
  const { result } = await sandboxToken(token);

  // The watcher records it; the route, read only later, finds it in the database.
  await expect
    .poll(async () => ((await (await api.get(`/api/tokens/${id}`)).json()) as LiveTokenResponse).token.state, { timeout: 20_000 })
    .toBe("successful");
  expect((await statusCallsFor(token)).some((call) => call.path === statusPaths.result)).toBe(true);

  const response = await api.get(`/api/tokens/${id}`);
  expect(response.headers()["cache-control"]).toContain("no-store");
  const body = (await response.json()) as LiveTokenResponse;
  expect(body.token).toMatchObject({
    id,
    token,
    state: "successful",
    isFinal: true,
    result: { status: "SUCCESSFUL", transactionNumber: result!.transactionNumber, error: null },
    delivery: { smsSent: true },
  });
  expect(Date.parse(body.token.expiresAt!) - Date.parse(body.token.issuedAt!)).toBe(15 * 60_000);
  expect(Math.abs(Date.parse(body.serverNow) - Date.now())).toBeLessThan(5_000);
  // No full ID number in what the browser gets.
  const text = JSON.stringify(body);
  for (const secret of secretFormsOf(customer)) expect(text).not.toContain(secret);

  // Reading it never called the service: no status call after the token closed.
  const callsBefore = (await statusCallsFor(token)).length;
  for (let index = 0; index < 5; index += 1) await api.get(`/api/tokens/${id}`);
  await new Promise((resolve) => setTimeout(resolve, 4_000));
  expect((await statusCallsFor(token)).length).toBe(callsBefore);
});

test("the poll routes keep to the branch: another branch's teller gets 404, signed out gets 401", async ({ page }) => {
  const { id } = await issueRemoteToken(page, newCustomer());
  const kumasi = page.context().request;
  expect((await kumasi.get(`/api/tokens/${id}`)).status()).toBe(200);

  const accra = await requestWith(await signInByApi("teller.accra", demoAccount("teller.accra").password));
  const refused = await accra.get(`/api/tokens/${id}`);
  expect(refused.status()).toBe(404);
  expect(refused.headers()["cache-control"]).toContain("no-store");
  const accraToday = (await (await accra.get("/api/tokens?scope=today")).json()) as TodayTokensResponse;
  expect(accraToday.tokens.map((token) => token.id)).not.toContain(id);
  await accra.dispose();

  const kumasiToday = (await (await kumasi.get("/api/tokens?scope=today")).json()) as TodayTokensResponse;
  expect(kumasiToday.tokens.map((token) => token.id)).toContain(id);

  // Supervisors of the branch and of head office open it (and are put on record); Accra's teller may not.
  for (const username of ["supervisor.kumasi", "supervisor.hq"] as const) {
    const supervisor = await requestWith(await signInByApi(username, demoAccount(username).password));
    expect((await supervisor.get(`/tokens/${id}`, { maxRedirects: 0 })).status(), username).toBe(200);
    expect((await supervisor.get(`/api/tokens/${id}`)).status(), username).toBe(200);
    await supervisor.dispose();
  }
  const accraPage = await requestWith(await signInByApi("teller.accra", demoAccount("teller.accra").password));
  expect((await accraPage.get(`/tokens/${id}`, { maxRedirects: 0 })).status()).toBe(404);
  await accraPage.dispose();

  const signedOut = await requestWith(null);
  expect((await signedOut.get(`/api/tokens/${id}`)).status()).toBe(401);
  expect((await signedOut.get("/api/tokens?scope=today")).status()).toBe(401);
  await signedOut.dispose();
});
