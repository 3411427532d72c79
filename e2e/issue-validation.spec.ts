import type { Page, Request } from "@playwright/test";
import { newCustomer } from "./support/customers";
import { callAction, captureNextAction, readActionResult, type CapturedAction } from "./support/server-actions";
import { expect, test } from "./support/session";
import { attestAndSubmit, chooseIdType, choosePurpose, fillContact, openMoreOptions, openRemoteForm } from "./support/token-forms";

/**
 * Bad input of every field gets a clear message in the browser, and the same input sent straight
 * to the server action (around the browser's checks) gets the same message from the server.
 */

type Case = {
  field: string;
  label: string;
  value: string;
  /** Words the message must contain (the exact text is compared between browser and server). */
  says: RegExp;
  idType?: "Voter ID" | "Passport" | "Driver licence";
};

const remoteCases: Case[] = [
  { field: "ghanaCardNumber", label: "Ghana Card number", value: "", says: /Enter the Ghana Card number/ },
  { field: "ghanaCardNumber", label: "Ghana Card number", value: "GHA-12345678-0", says: /9 digits/ },
  { field: "ghanaCardNumber", label: "Ghana Card number", value: "GHA-١٢٣٤٥٦٧٨٩-٠", says: /digits 0–9 only/ },
  { field: "ghanaCardNumber", label: "Ghana Card number", value: "GHA-１２３４５６７８９-０", says: /digits 0–9 only/ },
  { field: "phoneNumber", label: "Customer's mobile number", value: "", says: /mobile number/ },
  { field: "phoneNumber", label: "Customer's mobile number", value: "024 123 456", says: /Ghana mobile number/ },
  { field: "phoneNumber", label: "Customer's mobile number", value: "0302123456", says: /Ghana mobile number/ },
  { field: "phoneNumber", label: "Customer's mobile number", value: "+44 7911 123456", says: /\+233/ },
  { field: "phoneNumber", label: "Customer's mobile number", value: "٠٢٤١٢٣٤٥٦٧", says: /digits 0–9 only/ },
  { field: "email", label: "E-mail", value: "ama@", says: /e-mail address/ },
  { field: "email", label: "E-mail", value: "ama example.com", says: /e-mail address/ },
  { field: "referenceId", label: "Reference", value: "   ", says: /Enter a reference/ },
  { field: "referenceId", label: "Reference", value: "R".repeat(65), says: /64 characters/ },
  { field: "purpose", label: "Purpose", value: "", says: /purpose/ },
  { field: "voterId", label: "Voter ID number", value: "12-34", says: /5 to 20 letters and digits/, idType: "Voter ID" },
  { field: "voterId", label: "Voter ID number", value: "", says: /Enter the voter ID number/, idType: "Voter ID" },
  { field: "passportNumber", label: "Passport number", value: "G12", says: /6 to 15/, idType: "Passport" },
  { field: "driverLicenceNumber", label: "Driver licence number", value: "-ABC123", says: /4 to 30/, idType: "Driver licence" },
  { field: "dateOfBirth", label: "Date of birth", value: "2099-01-01", says: /future/, idType: "Driver licence" },
  { field: "dateOfBirth", label: "Date of birth", value: "2020-06-01", says: /at least 18/, idType: "Driver licence" },
  { field: "dateOfBirth", label: "Date of birth", value: "1890-06-01", says: /older than 120/, idType: "Driver licence" },
];

const idTypeValue = { "Voter ID": "VOTER", Passport: "PASSPORT", "Driver licence": "DRIVER_LICENCE" } as const;

function countActionPosts(page: Page): { count: () => number } {
  let count = 0;
  page.on("request", (request: Request) => {
    if (request.method() === "POST" && request.headers()["next-action"]) count += 1;
  });
  return { count: () => count };
}

async function readFieldError(page: Page, field: string): Promise<string> {
  const error = page.locator(`#${field}-error`);
  await expect(error).not.toBeEmpty();
  return (await error.textContent())!.trim();
}

/** A valid remote form for the given type, filled in the browser. */
async function fillValidRemote(page: Page, idType?: Case["idType"]): Promise<void> {
  const customer = newCustomer();
  await openRemoteForm(page);
  if (idType) await chooseIdType(page, idType);
  if (!idType) await page.getByLabel("Ghana Card number").fill(customer.ghanaCardNumber);
  if (idType === "Voter ID") await page.getByLabel("Voter ID number").fill(customer.voterId);
  if (idType === "Passport") await page.getByLabel("Passport number").fill(customer.passportNumber);
  if (idType === "Driver licence") {
    await page.getByLabel("Driver licence number").fill(customer.driverLicenceNumber);
    await page.getByLabel("Date of birth").fill(customer.dateOfBirth);
  }
  // KYC refresh allows every ID type, so the purpose never switches the type chosen above.
  await fillContact(page, customer, { email: true, purpose: "KYC refresh" });
}

test("every bad field gets the same message in the browser and from the server", async ({ page }) => {
  test.setTimeout(120_000);
  const actionPosts = countActionPosts(page);

  // One real submit, stopped before it reaches the server, gives the action's id and a valid body.
  await fillValidRemote(page);
  const captured: CapturedAction = await captureNextAction(page, () => attestAndSubmit(page, "Issue remote token"), { block: true });
  const [validBody] = captured.args as [Record<string, unknown>];
  const postsBefore = actionPosts.count();

  const customer = newCustomer();
  for (const badCase of remoteCases) {
    await fillValidRemote(page, badCase.idType);
    const control = badCase.field === "purpose" ? page.getByRole("combobox", { name: "Purpose" }) : page.getByLabel(badCase.label);
    if (badCase.field === "purpose") await control.selectOption(badCase.value);
    else await control.fill(badCase.value);
    await attestAndSubmit(page, "Issue remote token");
    const shown = await readFieldError(page, badCase.field);
    expect(shown, `${badCase.field} = ${JSON.stringify(badCase.value)}`).toMatch(badCase.says);
    await expect(control).toHaveAttribute("aria-invalid", "true");
    await expect(control).toHaveAttribute("aria-describedby", new RegExp(`${badCase.field}-error`));

    const body: Record<string, unknown> = { ...validBody, [badCase.field]: badCase.value };
    if (badCase.idType) {
      body.idType = idTypeValue[badCase.idType];
      Object.assign(body, { voterId: customer.voterId, passportNumber: customer.passportNumber, driverLicenceNumber: customer.driverLicenceNumber, dateOfBirth: customer.dateOfBirth });
      body[badCase.field] = badCase.value;
    }
    const result = readActionResult((await callAction(page.request, captured, [body])).text);
    expect(result, `server answer for ${badCase.field}`).toMatchObject({ ok: false, code: "VALIDATION" });
    expect(result.fieldErrors?.[badCase.field], `server message for ${badCase.field}`).toEqual([shown]);
  }
  // None of the bad forms was sent by the browser.
  expect(actionPosts.count()).toBe(postsBefore);
});

test("a link that goes nowhere is refused on both sides", async ({ page }) => {
  await fillValidRemote(page);
  await page.getByLabel("E-mail").fill("");
  await openMoreOptions(page);
  await page.getByLabel("Send the link by SMS").uncheck();
  await attestAndSubmit(page, "Issue remote token");
  const shown = await readFieldError(page, "sendSms");
  expect(shown).toMatch(/by SMS, by e-mail, or both/);

  await page.getByLabel("Send the link by SMS").check();
  const captured = await captureNextAction(page, () => attestAndSubmit(page, "Issue remote token"), { block: true });
  const [validBody] = captured.args as [Record<string, unknown>];
  const result = readActionResult((await callAction(page.request, captured, [{ ...validBody, sendSms: false, email: "" }])).text);
  expect(result.fieldErrors).toEqual({ sendSms: [shown] });
});

test("an empty form shows every field's message at once, and so does the server", async ({ page }) => {
  await openRemoteForm(page);
  await attestAndSubmit(page, "Issue remote token");
  for (const field of ["ghanaCardNumber", "phoneNumber", "referenceId", "purpose"]) {
    await expect(page.locator(`#${field}-error`)).not.toBeEmpty();
  }
  // The first bad field in page order takes the focus: the purpose comes first (it decides the ID types).
  await expect(page.getByRole("combobox", { name: "Purpose" })).toBeFocused();
  await page.screenshot({ path: "/tmp/tokens-remote-empty-errors.png", fullPage: true });

  await fillValidRemote(page);
  const captured = await captureNextAction(page, () => attestAndSubmit(page, "Issue remote token"), { block: true });
  const [validBody] = captured.args as [Record<string, unknown>];
  const result = readActionResult(
    (await callAction(page.request, captured, [{ ...validBody, ghanaCardNumber: "", phoneNumber: "", referenceId: "", purpose: "", email: "x" }])).text,
  );
  expect(Object.keys(result.fieldErrors ?? {}).sort()).toEqual(["email", "ghanaCardNumber", "phoneNumber", "purpose", "referenceId"]);
});

test("pasted spaces and separators are accepted and normalised", async ({ page }) => {
  await openRemoteForm(page);
  const card = page.getByLabel("Ghana Card number");
  // Pasted in one go (fill), with no-break spaces and a non-breaking hyphen.
  await card.fill("  gha\u00a0123456789\u20110  ");
  await card.blur();
  await expect(card).toHaveValue("GHA-123456789-0");
  await expect(page.locator("#ghanaCardNumber-error")).toBeEmpty();
  await page.getByLabel("Customer's mobile number").fill("\u00a0233 24 123 4567 ");
  await page.getByLabel("Customer's mobile number").blur();
  await expect(page.locator("#phoneNumber-error")).toBeEmpty();
});

test("the fingerprint form checks its fields the same way", async ({ page }) => {
  await page.goto("/tokens/new/fingerprint");
  await page.getByLabel("Ghana Card number").fill(newCustomer().ghanaCardNumber);
  await page.getByLabel("Reference").fill("REF-1");
  await choosePurpose(page, "Cash withdrawal");
  const captured = await captureNextAction(page, () => attestAndSubmit(page, "Issue fingerprint token"), { block: true });
  const [validBody] = captured.args as [Record<string, unknown>];

  const cases = [
    { field: "ghanaCardNumber", control: page.getByLabel("Ghana Card number"), value: "GHA-1234" },
    { field: "ghanaCardNumber", control: page.getByLabel("Ghana Card number"), value: "" },
    { field: "referenceId", control: page.getByLabel("Reference"), value: "" },
  ];
  for (const { field, control, value } of cases) {
    const previous = await control.inputValue();
    await control.fill(value);
    await attestAndSubmit(page, "Issue fingerprint token");
    const shown = await readFieldError(page, field);
    const result = readActionResult((await callAction(page.request, captured, [{ ...validBody, [field]: value }])).text);
    expect(result.fieldErrors?.[field]).toEqual([shown]);
    await control.fill(previous);
  }
  // The purpose is a list now: an empty choice is the one bad value a teller can make.
  const purpose = page.getByRole("combobox", { name: "Purpose" });
  await purpose.selectOption("");
  await attestAndSubmit(page, "Issue fingerprint token");
  const shown = await readFieldError(page, "purpose");
  const result = readActionResult((await callAction(page.request, captured, [{ ...validBody, purpose: "" }])).text);
  expect(result.fieldErrors?.purpose).toEqual([shown]);
});
