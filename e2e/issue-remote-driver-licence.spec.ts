import { newCustomer, secretFormsOf } from "./support/customers";
import { expectNowhere, watchUrls } from "./support/privacy";
import { callsSince, markCalls, messagesFor, upstreamPaths } from "./support/sandbox";
import { expect, test } from "./support/session";
import { chooseIdType, fillContact, openRemoteForm, setOption, shownToken, submitAndOpenToken } from "./support/token-forms";

test("remote token for a driver licence: driverid and dob, home address captured", async ({ page }) => {
  const customer = newCustomer();
  const urls = watchUrls(page);
  const mark = await markCalls();

  await openRemoteForm(page);
  await chooseIdType(page, "Driver licence");
  await page.getByLabel("Driver licence number").fill(customer.driverLicenceNumber.toLowerCase());
  await page.getByLabel("Date of birth").fill(customer.dateOfBirth);
  await fillContact(page, customer, { email: true, purpose: "Loan disbursement" });
  await setOption(page, "Capture the home address", true);
  await page.screenshot({ path: "/tmp/tokens-remote-driver-form.png", fullPage: true });

  await submitAndOpenToken(page, "Issue remote token");
  const token = await shownToken(page);

  const calls = await callsSince(mark, upstreamPaths.remote);
  expect(calls).toHaveLength(1);
  expect(calls[0]!.fields).toEqual({
    id_type: "DRIVER_LICENCE",
    verificationtype: "3",
    driverid: customer.driverLicenceNumber,
    dob: customer.dateOfBirth,
    phonenumber: customer.phoneLocal,
    referenceid: customer.phoneLocal,
    purpose: "Loan disbursement",
    email: customer.email,
    send_token_to_client: "1",
    with_instructions: "1",
    require_location: "0",
    require_address_location: "1",
  });
  const messages = await messagesFor(token);
  expect(messages.map(({ channel }) => channel).sort()).toEqual(["email", "sms"]);

  expectNowhere([...secretFormsOf(customer), customer.dateOfBirth], { urls });
});
