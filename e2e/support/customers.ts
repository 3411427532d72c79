/**
 * Test customers with fresh identifiers, so that no spec sees another's active token for the
 * same ID number (the app warns about those) and each ID number can be looked for in the log.
 */

function randomDigits(count: number): string {
  let digits = "";
  for (let index = 0; index < count; index += 1) digits += Math.floor(Math.random() * 10).toString();
  // A leading zero would make the log search ambiguous with nothing; keep the first digit 1–9.
  return digits.replace(/^0/, "7");
}

export type TestCustomer = {
  ghanaCardNumber: string;
  voterId: string;
  passportNumber: string;
  driverLicenceNumber: string;
  dateOfBirth: string;
  /** As the teller types it. */
  phoneTyped: string;
  /** As the provider wants it. */
  phoneLocal: string;
  email: string;
};

export function newCustomer(): TestCustomer {
  const subscriber = randomDigits(7);
  return {
    ghanaCardNumber: `GHA-${randomDigits(9)}-${randomDigits(1)}`,
    voterId: randomDigits(10),
    passportNumber: `G${randomDigits(7)}`,
    driverLicenceNumber: `DL-${randomDigits(6)}-${randomDigits(2)}`,
    dateOfBirth: "1988-03-14",
    phoneTyped: `+233 24 ${subscriber.slice(0, 3)} ${subscriber.slice(3)}`,
    phoneLocal: `024${subscriber}`,
    email: `customer.${randomDigits(6)}@example.com`,
  };
}

/** The full ID numbers of a customer, in every written form a leak could take. */
export function secretFormsOf(customer: TestCustomer): string[] {
  const card = customer.ghanaCardNumber;
  return [card, card.replace(/-/g, ""), card.slice(4, 13), customer.voterId, customer.passportNumber, customer.driverLicenceNumber, customer.email];
}

/**
 * A unique tail for a reference a spec looks for on a page: letters only, because every run of 7
 * or more digits in a reference is masked wherever it is shown (lib/pii/mask.ts `maskFreeText`),
 * and `Date.now()`'s 13 digits would be too.
 */
export function uniqueReferenceTail(): string {
  return [...Date.now().toString(26), ...Math.random().toString(26).slice(2, 6)].map((digit) => String.fromCharCode(65 + parseInt(digit, 26))).join("");
}
