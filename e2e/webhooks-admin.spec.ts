import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import type { Page } from "@playwright/test";
import { callServerAction } from "@/e2e/support/action-calls";
import { expect, SECOND_ADMIN, test, uniqueSuffix } from "@/e2e/support/auth";

/**
 * Webhooks on the administrators' pages: one administrator adds an endpoint and is shown no
 * secret; it receives nothing until a second administrator approves it, who alone is shown its
 * signing secret, once (ADR 0052); then a test event is sent, verified by a receiver in this test
 * with the standardwebhooks library, and shown in the endpoint's delivery log. Rotating its secret
 * is two administrators too: one proposes, the other approves and alone sees the new secret,
 * once; both secrets sign for the overlap.
 */

let receiver: Server;
const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];

test.beforeAll(async () => {
  receiver = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    request.on("end", () => {
      received.push({ headers: request.headers, body });
      response.writeHead(200, { "content-type": "text/plain" }).end("received by the e2e receiver");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
});

test.afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
});

const webhookActions = "app/(staff)/admin/webhooks/actions.ts";
const decideEndpoint = { file: webhookActions, name: "decideWebhookEndpointAction" } as const;

/** Adds an endpoint on the list page as this administrator; the proposer is told it waits, and shown no secret. */
async function addEndpoint(page: Page, url: string, description = ""): Promise<string> {
  await page.goto("/admin/webhooks");
  await page.getByLabel("URL").fill(url);
  if (description) await page.getByLabel("Description").fill(description);
  await page.getByRole("button", { name: "Add endpoint" }).click();
  await expect(page.getByText("Endpoint added: waiting for a second administrator")).toBeVisible();
  await expect(page.getByTestId("webhook-secret")).toHaveCount(0);
  const href = await page.locator(`tr[data-endpoint="${url}"]`).getByRole("link", { name: url }).getAttribute("href");
  return href!.split("/").at(-1)!;
}

/** The second administrator approves it on the list and is shown its secret, with a copy button, once. */
async function approveOnList(page: Page, url: string): Promise<string> {
  await page.goto("/admin/webhooks");
  const row = page.locator(`tr[data-endpoint="${url}"]`);
  await row.getByRole("button", { name: "Approve" }).click();
  await expect(row).toContainText("Active");
  const shown = page.getByRole("status").filter({ has: page.getByTestId("webhook-secret") });
  await expect(shown).toHaveCount(1);
  await expect(shown).toContainText(url);
  await expect(shown.getByRole("button", { name: "Copy secret" })).toBeVisible();
  return (await shown.getByTestId("webhook-secret").textContent())!.trim();
}

test("an administrator adds an endpoint and sees no secret; a second approves and alone sees it, once; a test event arrives signed with it and shows in the log", async ({ browser, apiAs }) => {
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/veridesk/${uniqueSuffix()}`;
  const firstClient = await apiAs("admin");
  const first = await (await browser.newContext({ storageState: await firstClient.storageState() })).newPage();
  const endpointId = await addEndpoint(first, url, "Onboarding app (e2e)");
  for (const width of [1280, 390]) {
    await first.setViewportSize({ width, height: 900 });
    await first.screenshot({ path: `/tmp/endpoint-added-${width}.png`, fullPage: true });
  }
  await first.reload();
  const row = first.locator(`tr[data-endpoint="${url}"]`);
  await expect(row).toContainText("Waiting for approval");
  await expect(row).toContainText("Waiting for a second administrator");
  await expect(row.getByRole("button", { name: "Approve" })).toHaveCount(0);
  await expect(first.getByTestId("webhook-secret")).toHaveCount(0);
  for (const width of [1280, 390]) {
    await first.setViewportSize({ width, height: 900 });
    await first.screenshot({ path: `/tmp/endpoint-proposed-${width}.png`, fullPage: true });
  }
  await row.getByRole("link", { name: url }).click();
  await expect(first.getByTestId("secret-at-approval")).toContainText("another administrator approves");
  await first.screenshot({ path: "/tmp/endpoint-waiting-page-390.png", fullPage: true });
  await first.setViewportSize({ width: 1280, height: 900 });

  // The proposer past the page, and staff without the permission: refused, and no secret made.
  const selfApproval = await callServerAction(firstClient, decideEndpoint, { endpointId, decision: "approve" });
  expect(selfApproval.result).toMatchObject({ ok: false, code: "FORBIDDEN", formError: "Another administrator must approve or reject an endpoint you added." });
  for (const username of ["supervisor.hq", "supervisor.kumasi", "teller.accra"] as const) {
    const call = await callServerAction(await apiAs(username), decideEndpoint, { endpointId, decision: "approve" });
    expect(call.result, username).toMatchObject({ ok: false, code: "FORBIDDEN" });
    expect(call.text, username).not.toContain("whsec_");
  }

  const second = await (await browser.newContext({ storageState: await (await apiAs(SECOND_ADMIN)).storageState() })).newPage();
  const secret = await approveOnList(second, url);
  expect(secret).toMatch(/^whsec_/);
  for (const width of [1280, 390]) {
    await second.setViewportSize({ width, height: 900 });
    await second.screenshot({ path: `/tmp/endpoint-approved-${width}.png`, fullPage: true });
  }
  await second.setViewportSize({ width: 1280, height: 900 });
  // Once: a reload shows it to no one, and a second approval makes no other.
  await second.reload();
  await expect(second.getByTestId("webhook-secret")).toHaveCount(0);
  const again = await callServerAction(await apiAs(SECOND_ADMIN), decideEndpoint, { endpointId, decision: "approve" });
  expect(again.result).toMatchObject({ ok: false, code: "CONFLICT" });
  expect(again.text).not.toContain("whsec_");
  await first.reload();
  await expect(first.getByTestId("webhook-secret")).toHaveCount(0);

  await second.locator(`tr[data-endpoint="${url}"]`).getByRole("link", { name: url }).click();
  await second.getByRole("button", { name: "Send test event" }).click();
  await expect(second.getByText("Test event queued")).toBeVisible();
  await expect.poll(() => received.filter((entry) => entry.body.includes(endpointId)).length, { timeout: 20_000 }).toBe(1);
  const delivery = received.find((entry) => entry.body.includes(endpointId))!;
  const headers = { "webhook-id": String(delivery.headers["webhook-id"]), "webhook-timestamp": String(delivery.headers["webhook-timestamp"]), "webhook-signature": String(delivery.headers["webhook-signature"]) };
  expect(new Webhook(secret).verify(delivery.body, headers)).toMatchObject({ type: "webhook.test", data: { requested_by: SECOND_ADMIN } });

  await expect(async () => {
    await second.reload();
    const log = second.getByTestId("delivery-log").locator('tr[data-delivery="webhook.test"]');
    await expect(log).toContainText("Delivered", { timeout: 1_000 });
    await expect(log).toContainText("HTTP 200");
    await expect(log).toContainText(headers["webhook-id"]);
    await expect(log).toContainText("received by the e2e receiver");
  }).toPass({ timeout: 15_000 });
  await second.screenshot({ path: "/tmp/endpoint-log.png", fullPage: true });
  for (const opened of [first, second]) await opened.context().close();
});

test("a new endpoint's approval: of two at once one is shown a secret; a rejected proposal is never approved and shows no secret", async ({ browser, apiAs }) => {
  const port = (receiver.address() as AddressInfo).port;
  const first = await (await browser.newContext({ storageState: await (await apiAs("admin")).storageState() })).newPage();
  const approver = await apiAs(SECOND_ADMIN);

  const raced = `http://127.0.0.1:${port}/veridesk/race-${uniqueSuffix()}`;
  const racedId = await addEndpoint(first, raced);
  const calls = await Promise.all([approver, approver, approver].map((client) => callServerAction(client, decideEndpoint, { endpointId: racedId, decision: "approve" })));
  const shown = calls.filter((call) => call.result?.ok === true);
  expect(shown).toHaveLength(1);
  expect(shown[0]!.text).toMatch(/whsec_/);
  for (const call of calls.filter((one) => one.result?.ok !== true)) {
    expect(call.result).toMatchObject({ ok: false, code: "CONFLICT" });
    expect(call.text).not.toContain("whsec_");
  }

  const rejected = `http://127.0.0.1:${port}/veridesk/rejected-${uniqueSuffix()}`;
  const rejectedId = await addEndpoint(first, rejected);
  const second = await (await browser.newContext({ storageState: await approver.storageState() })).newPage();
  await second.goto("/admin/webhooks");
  await second.locator(`tr[data-endpoint="${rejected}"]`).getByRole("button", { name: "Reject" }).click();
  await expect(second.locator(`tr[data-endpoint="${rejected}"]`)).toHaveCount(0);
  await expect(second.getByTestId("webhook-secret")).toHaveCount(0);
  const late = await callServerAction(approver, decideEndpoint, { endpointId: rejectedId, decision: "approve" });
  expect(late.result).toMatchObject({ ok: false, code: "CONFLICT", formError: "This endpoint is no longer waiting for approval." });
  expect(late.text).not.toContain("whsec_");
  for (const opened of [first, second]) await opened.context().close();
});

/** The endpoint's page for this administrator, found from the list by its URL. */
async function openEndpoint(page: Page, url: string) {
  await page.goto("/admin/webhooks");
  await page.locator(`tr[data-endpoint="${url}"]`).getByRole("link", { name: url }).click();
  await expect(page.getByRole("heading", { name: "Signing secret" })).toBeVisible();
}

test("rotating a secret is two administrators: the proposer sees no secret and cannot approve, a second proposal is refused, the approver sees the new secret once and both sign for the overlap", async ({ browser, apiAs }) => {
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/veridesk/rotate-${uniqueSuffix()}`;
  const firstClient = await apiAs("admin");
  const first = await (await browser.newContext({ storageState: await firstClient.storageState() })).newPage();
  await addEndpoint(first, url);
  const approver = await (await browser.newContext({ storageState: await (await apiAs(SECOND_ADMIN)).storageState() })).newPage();
  const oldSecret = await approveOnList(approver, url);

  // One administrator proposes: no secret for them, and no way to approve their own.
  await openEndpoint(first, url);
  await first.getByLabel("Old secret keeps signing for (hours)").fill("2");
  await first.getByRole("button", { name: "Propose a new secret" }).click();
  await expect(first.getByText("Rotation proposed.")).toBeVisible();
  await expect(first.getByTestId("webhook-secret")).toHaveCount(0);
  await first.reload();
  await expect(first.getByTestId("waiting-rotation")).toContainText("Proposed by admin");
  await expect(first.getByTestId("waiting-rotation")).toContainText("2 hours");
  await expect(first.getByRole("button", { name: /Approve/ })).toHaveCount(0);
  await expect(first.getByRole("button", { name: "Withdraw" })).toBeVisible();
  for (const width of [1280, 390]) {
    await first.setViewportSize({ width, height: 900 });
    await first.screenshot({ path: `/tmp/webhooks-rotation-proposed-${width}.png`, fullPage: true });
  }

  // The proposer's own calls, past the page: approving their own is refused, and so is a second proposal.
  const endpointId = new URL(first.url()).pathname.split("/").at(-1)!;
  const rotationId = await waitingRotationIdOn(approver, url);
  const selfApproval = await callServerAction(firstClient, { file: webhookActions, name: "approveSecretRotationAction" }, { endpointId, rotationId });
  expect(selfApproval.result).toMatchObject({ ok: false, code: "FORBIDDEN", formError: "A second administrator must approve a rotation you proposed." });
  const secondProposal = await callServerAction(firstClient, { file: webhookActions, name: "proposeSecretRotationAction" }, { endpointId, overlapHours: 1 });
  expect(secondProposal.result).toMatchObject({ ok: false, code: "CONFLICT" });
  for (const username of ["supervisor.hq", "supervisor.kumasi", "teller.accra"] as const) {
    const call = await callServerAction(await apiAs(username), { file: webhookActions, name: "approveSecretRotationAction" }, { endpointId, rotationId });
    expect(call.result, username).toMatchObject({ ok: false, code: "FORBIDDEN" });
  }

  // The second administrator approves and alone sees the new secret, once.
  await approver.getByRole("button", { name: "Approve and show the new secret" }).click();
  const newSecret = (await approver.getByTestId("webhook-secret").textContent())!.trim();
  expect(newSecret).toMatch(/^whsec_/);
  expect(newSecret).not.toBe(oldSecret);
  for (const width of [1280, 390]) {
    await approver.setViewportSize({ width, height: 900 });
    await approver.screenshot({ path: `/tmp/webhooks-rotation-approved-${width}.png`, fullPage: true });
  }
  await approver.reload();
  await expect(approver.getByTestId("webhook-secret")).toHaveCount(0);
  await expect(approver.getByTestId("waiting-rotation")).toHaveCount(0);
  await expect(approver.getByText("Old secret signs too until")).toBeVisible();
  const again = await callServerAction(await apiAs(SECOND_ADMIN), { file: webhookActions, name: "approveSecretRotationAction" }, { endpointId, rotationId });
  expect(again.result).toMatchObject({ ok: false, code: "CONFLICT" });

  // During the overlap a delivery verifies with either secret.
  const before = received.length;
  await approver.setViewportSize({ width: 1280, height: 900 });
  await approver.getByRole("button", { name: "Send test event" }).click();
  await expect.poll(() => received.slice(before).filter((entry) => entry.body.includes("webhook.test")).length, { timeout: 20_000 }).toBe(1);
  const delivery = received.slice(before).find((entry) => entry.body.includes("webhook.test"))!;
  const headers = { "webhook-id": String(delivery.headers["webhook-id"]), "webhook-timestamp": String(delivery.headers["webhook-timestamp"]), "webhook-signature": String(delivery.headers["webhook-signature"]) };
  for (const secret of [newSecret, oldSecret]) expect(new Webhook(secret).verify(delivery.body, headers)).toMatchObject({ type: "webhook.test" });
  for (const opened of [first, approver]) await opened.context().close();
});

/** The waiting rotation's id, as the approver's page holds it (its buttons send it). */
async function waitingRotationIdOn(page: Page, url: string): Promise<string> {
  await openEndpoint(page, url);
  const id = await page.getByTestId("waiting-rotation").getAttribute("data-rotation-id");
  expect(id).toMatch(/^[0-9a-f-]{36}$/);
  return id!;
}
