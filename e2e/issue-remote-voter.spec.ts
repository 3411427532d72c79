import { newCustomer, secretFormsOf } from "./support/customers";
import { expectNowhere, watchUrls } from "./support/privacy";
import { callsSince, markCalls, messagesFor, upstreamPaths } from "./support/sandbox";
import { expect, test } from "./support/session";
import { chooseIdType, fillContact, openRemoteForm, setOption, shownToken, submitAndOpenToken } from "./support/token-forms";

test("remote token for a voter ID: a Ghana Card typed first is dropped, options become the spec's flags", async ({ page }) => {
  const customer = newCustomer();
  const urls = watchUrls(page);
  const mark = await markCalls();

  await openRemoteForm(page);
  // Typed under Ghana Card first, then the teller switches type: the card number must not travel.
  await page.getByLabel("Ghana Card number").fill(customer.ghanaCardNumber);
  await chooseIdType(page, "Voter ID");
  await expect(page.getByLabel("Ghana Card number")).toHaveCount(0);
  await page.getByLabel("Voter ID number").fill(` ${customer.voterId.slice(0, 5)} ${customer.voterId.slice(5)} `);
  await fillContact(page, customer, { purpose: "Loan application" });
  await page.getByLabel("Reference").fill("LOAN-2291");
  await setOption(page, "Skip the instructions", true);
  await setOption(page, "Capture the device location", true);

  await submitAndOpenToken(page, "Issue remote token");
  const token = await shownToken(page);
  await expect(page.getByText("Voter ID ••••" + customer.voterId.slice(-4)).first()).toBeVisible();

  const calls = await callsSince(mark, upstreamPaths.remote);
  expect(calls).toHaveLength(1);
  expect(calls[0]!.fields).toEqual({
    id_type: "VOTER",
    verificationtype: "3",
    voterid: customer.voterId,
    phonenumber: customer.phoneLocal,
    referenceid: "LOAN-2291",
    purpose: "Loan application",
    send_token_to_client: "1",
    with_instructions: "0",
    require_location: "1",
    require_address_location: "0",
  });
  const messages = await messagesFor(token);
  expect(messages.map(({ channel, to }) => ({ channel, to }))).toEqual([{ channel: "sms", to: customer.phoneLocal }]);

  expectNowhere(secretFormsOf(customer), { urls });
});
