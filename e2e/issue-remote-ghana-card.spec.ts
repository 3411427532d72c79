import { newCustomer, secretFormsOf } from "./support/customers";
import { expectNowhere, watchUrls } from "./support/privacy";
import { callsSince, markCalls, messagesFor, upstreamPaths } from "./support/sandbox";
import { expect, test } from "./support/session";
import { fillContact, openRemoteForm, shownToken, submitAndOpenToken } from "./support/token-forms";

test("remote token for a Ghana Card: exactly the spec's fields, SMS and e-mail delivered", async ({ page }) => {
  const customer = newCustomer();
  const urls = watchUrls(page);
  const mark = await markCalls();

  await openRemoteForm(page);
  await expect(page.getByRole("radio", { name: "Ghana Card" })).toBeChecked();
  const cardInput = page.getByLabel("Ghana Card number");
  await cardInput.pressSequentially(customer.ghanaCardNumber.replace("GHA-", "gha").replace("-", " "));
  await expect(cardInput).toHaveValue(customer.ghanaCardNumber);
  await fillContact(page, customer, { email: true });
  // The reference follows the phone until the teller types another.
  await expect(page.getByLabel("Reference")).toHaveValue(customer.phoneTyped);
  await expect(page.getByLabel("Send the link by SMS")).toBeChecked();
  await page.screenshot({ path: "/tmp/tokens-remote-form.png", fullPage: true });

  await submitAndOpenToken(page, "Issue remote token");
  const token = await shownToken(page);
  const delivery = page.getByTestId("delivery");
  await expect(delivery).toContainText(`SMS to 024 ••• ${customer.phoneLocal.slice(-4)}`);
  await expect(delivery).toContainText("E-mail to c•••@example.com");
  await page.screenshot({ path: "/tmp/tokens-remote-issued.png", fullPage: true });

  const calls = await callsSince(mark, upstreamPaths.remote);
  expect(calls).toHaveLength(1);
  expect(calls[0]).toMatchObject({ method: "POST", status: 200, token, contentType: expect.stringContaining("multipart/form-data") });
  expect(calls[0]!.fields).toEqual({
    id_type: "GHANA_CARD",
    verificationtype: "3",
    ghanacardnumber: customer.ghanaCardNumber,
    phonenumber: customer.phoneLocal,
    referenceid: customer.phoneLocal,
    purpose: "Account opening",
    email: customer.email,
    send_token_to_client: "1",
    with_instructions: "1",
    require_location: "0",
    require_address_location: "0",
  });

  const messages = await messagesFor(token);
  expect(messages.map(({ channel, to }) => ({ channel, to })).sort((a, b) => a.channel.localeCompare(b.channel))).toEqual([
    { channel: "email", to: customer.email },
    { channel: "sms", to: customer.phoneLocal },
  ]);
  expect(messages[0]!.link).toContain(token);

  expectNowhere(secretFormsOf(customer), { urls });
});
