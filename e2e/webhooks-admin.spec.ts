import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { expect, SECOND_ADMIN, test, uniqueSuffix } from "@/e2e/support/auth";

/**
 * Webhooks on the administrators' pages: one administrator adds an endpoint (its secret shown
 * once), it receives nothing until a second administrator approves it, then a test event is sent,
 * verified by a receiver in this test with the standardwebhooks library, and shown in the
 * endpoint's delivery log.
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

test("an administrator adds an endpoint, a second approves, a test event arrives signed and shows in the log", async ({ browser, apiAs }) => {
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/veridesk/${uniqueSuffix()}`;
  const first = await (await browser.newContext({ storageState: await (await apiAs("admin")).storageState() })).newPage();
  await first.goto("/admin/webhooks");
  await first.getByLabel("URL").fill(url);
  await first.getByLabel("Description").fill("Onboarding app (e2e)");
  await first.getByRole("button", { name: "Add endpoint" }).click();
  const secret = (await first.getByTestId("webhook-secret").textContent())!.trim();
  expect(secret).toMatch(/^whsec_/);
  const row = first.locator(`tr[data-endpoint="${url}"]`);
  await expect(row).toContainText("Waiting for approval");
  await expect(row.getByRole("button", { name: "Approve" })).toHaveCount(0);
  await first.screenshot({ path: "/tmp/webhooks-added.png", fullPage: true });

  const second = await (await browser.newContext({ storageState: await (await apiAs(SECOND_ADMIN)).storageState() })).newPage();
  await second.goto("/admin/webhooks");
  const secondRow = second.locator(`tr[data-endpoint="${url}"]`);
  await secondRow.getByRole("button", { name: "Approve" }).click();
  await expect(secondRow).toContainText("Active");

  await secondRow.getByRole("link", { name: url }).click();
  await second.getByRole("button", { name: "Send test event" }).click();
  await expect(second.getByText("Test event queued")).toBeVisible();
  await expect.poll(() => received.filter((entry) => entry.body.includes("webhook.test")).length, { timeout: 20_000 }).toBe(1);
  const [delivery] = received;
  const headers = { "webhook-id": String(delivery!.headers["webhook-id"]), "webhook-timestamp": String(delivery!.headers["webhook-timestamp"]), "webhook-signature": String(delivery!.headers["webhook-signature"]) };
  expect(new Webhook(secret).verify(delivery!.body, headers)).toMatchObject({ type: "webhook.test", data: { requested_by: SECOND_ADMIN } });

  await expect(async () => {
    await second.reload();
    const log = second.getByTestId("delivery-log").locator('tr[data-delivery="webhook.test"]');
    await expect(log).toContainText("Delivered", { timeout: 1_000 });
    await expect(log).toContainText("HTTP 200");
    await expect(log).toContainText(headers["webhook-id"]);
    await expect(log).toContainText("received by the e2e receiver");
  }).toPass({ timeout: 15_000 });
  await second.screenshot({ path: "/tmp/webhooks-log.png", fullPage: true });
});
