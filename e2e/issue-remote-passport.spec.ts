import { newCustomer, secretFormsOf } from "./support/customers";
import { expectNowhere, watchUrls } from "./support/privacy";
import { callsSince, markCalls, messagesFor, upstreamPaths } from "./support/sandbox";
import { expect, test } from "./support/session";
import { chooseIdType, fillContact, openRemoteForm, setOption, shownToken, submitAndOpenToken } from "./support/token-forms";

test("remote token for a passport, liveness only, link by e-mail only", async ({ page }) => {
  const customer = newCustomer();
  const urls = watchUrls(page);
  const mark = await markCalls();

  await openRemoteForm(page);
  await chooseIdType(page, "Passport");
  await page.getByLabel("Passport number").fill(customer.passportNumber.toLowerCase());
  await fillContact(page, customer, { email: true, purpose: "Card replacement" });
  await setOption(page, "Send the link by SMS", false);
  await setOption(page, "Liveness check only", true);

  await submitAndOpenToken(page, "Issue remote token");
  const token = await shownToken(page);
  await expect(page.getByTestId("delivery")).toHaveText("E-mail to c•••@example.com");
  await expect(page.getByText("Liveness only (no full KYC)")).toBeVisible();

  const calls = await callsSince(mark, upstreamPaths.remote);
  expect(calls).toHaveLength(1);
  expect(calls[0]!.fields).toEqual({
    id_type: "PASSPORT",
    verificationtype: "3",
    passportnumber: customer.passportNumber,
    phonenumber: customer.phoneLocal,
    referenceid: customer.phoneLocal,
    purpose: "Card replacement",
    email: customer.email,
    send_token_to_client: "0",
    with_instructions: "1",
    require_location: "0",
    require_address_location: "0",
    verification_mode_id: "7",
  });
  const messages = await messagesFor(token);
  expect(messages.map(({ channel, to }) => ({ channel, to }))).toEqual([{ channel: "email", to: customer.email }]);

  expectNowhere(secretFormsOf(customer), { urls });
});
