import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type RunningSandbox } from "@/sandbox/app";
import { captureLogs } from "@/test/kit/upstream";
import { createUpstreamClient, type UpstreamClient } from "@/lib/upstream";
import { toFingerprintTokenRequest, toRemoteTokenRequest } from "./remote-token-payload";
import type { IdType } from "@/lib/domain/id-types";
import { fingerprintTokenFormSchema, remoteTokenFormSchema } from "./token-forms";

/**
 * Property: every value the forms accept becomes a request the service accepts. The sandbox
 * implements the spec independently of lib/, so this checks the schemas, the mapper and the
 * upstream client together against the spec, not against themselves.
 */

const SANDBOX_PORT = 4411;
const API_KEY = "property-test-key";
const RUNS = 50;

let sandbox: RunningSandbox;
let client: UpstreamClient;

beforeAll(async () => {
  sandbox = await startSandbox({ port: SANDBOX_PORT, apiKey: API_KEY });
  client = createUpstreamClient({ baseUrl: sandbox.url, apiKey: API_KEY, timeoutMs: 5_000, logger: captureLogs().logger });
});

afterAll(async () => {
  await sandbox?.close();
});

const digits = (length: number) => fc.stringMatching(new RegExp(`^\\d{${length}}$`));
const alphanumeric = (min: number, max: number) => fc.stringMatching(new RegExp(`^[A-Za-z0-9]{${min},${max}}$`));
const pasteNoise = fc.constantFrom(" ", "", "\u00a0", "  ");

/** A Ghana Card number typed any way a teller types it. */
const typedGhanaCard = fc
  .tuple(fc.constantFrom("GHA-", "gha", "GHA ", "Gha-", ""), digits(9), fc.constantFrom("-", " ", "", "\u2011"), digits(1), pasteNoise)
  .map(([prefix, body, separator, check, noise]) => `${noise}${prefix}${body}${separator}${check}${noise}`);

/** A Ghana mobile number in local, international or bare-country-code form, spaced or not. */
const mobilePrefixes = ["020", "023", "024", "025", "026", "027", "028", "050", "053", "054", "055", "056", "057", "059"];
const typedMobile = fc
  .tuple(fc.constantFrom(...mobilePrefixes), digits(3), digits(4), fc.constantFrom("local", "plus", "bare", "spaced"))
  .map(([prefix, middle, end, style]) => {
    const national = `${prefix.slice(1)}${middle}${end}`;
    switch (style) {
      case "local":
        return `${prefix}${middle}${end}`;
      case "plus":
        return `+233 ${prefix.slice(1)} ${middle} ${end}`;
      case "bare":
        return `233${national}`;
      default:
        return `${prefix} ${middle} ${end}`;
    }
  });

const dateOfBirth = fc
  .date({ min: new Date("1910-01-01T00:00:00Z"), max: new Date("2006-01-01T00:00:00Z"), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 10));

const freeText = (max: number) => fc.string({ minLength: 1, maxLength: max }).filter((text) => /\S/.test(text));
const email = fc.oneof(fc.constant(""), fc.emailAddress().filter((address) => address.length <= 254));

const idFieldsArbitrary: Record<IdType, fc.Arbitrary<Record<string, string>>> = {
  GHANA_CARD: typedGhanaCard.map((ghanaCardNumber) => ({ ghanaCardNumber })),
  VOTER: alphanumeric(5, 20).map((voterId) => ({ voterId })),
  PASSPORT: alphanumeric(6, 15).map((passportNumber) => ({ passportNumber })),
  DRIVER_LICENCE: fc
    .tuple(fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9/-]{3,29}$/), dateOfBirth)
    .map(([driverLicenceNumber, dob]) => ({ driverLicenceNumber, dateOfBirth: dob })),
};

const remoteFormInput = fc
  .constantFrom<IdType>("GHANA_CARD", "VOTER", "PASSPORT", "DRIVER_LICENCE")
  .chain((idType) =>
    fc.record({
      idType: fc.constant(idType),
      idFields: idFieldsArbitrary[idType],
      phoneNumber: typedMobile,
      referenceId: fc.oneof(typedMobile, freeText(64)),
      purpose: freeText(120),
      email,
      sendSms: fc.boolean(),
      skipInstructions: fc.boolean(),
      captureLocation: fc.boolean(),
      captureHomeAddress: fc.boolean(),
      livenessOnly: fc.boolean(),
      consentAttested: fc.constant(true),
      consentWordingVersion: fc.integer({ min: 1, max: 50 }),
    }),
  )
  .map(({ idFields, ...rest }) => ({ ...rest, ...idFields }));

describe("every valid form value maps to a payload the sandbox accepts", () => {
  it("remote tokens, all four ID types", async () => {
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(remoteFormInput, async (input) => {
        const parsed = remoteTokenFormSchema.safeParse(input);
        fc.pre(parsed.success);
        if (!parsed.success) return;
        const request = toRemoteTokenRequest(parsed.data);
        const before = (await listCalls()).length;
        const answer = await client.initiateRemoteToken(request);
        expect(answer.token).toMatch(/\S/);
        const calls = await listCalls();
        const call = calls[calls.length - 1]!;
        expect(calls).toHaveLength(before + 1);
        expect(call.status).toBe(200);
        // Exactly the fields of the request, as text: nothing dropped, nothing added.
        expect(call.fields).toEqual(request);
        accepted += 1;
      }),
      { numRuns: RUNS },
    );
    expect(accepted).toBeGreaterThanOrEqual(RUNS * 0.8);
  });

  it("fingerprint tokens", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          ghanaCardNumber: typedGhanaCard,
          referenceId: fc.oneof(typedMobile, freeText(64)),
          purpose: fc.oneof(fc.constant(""), freeText(120)),
          consentAttested: fc.constant(true),
          consentWordingVersion: fc.integer({ min: 1, max: 50 }),
        }),
        fc.constantFrom("Accra – Head Office", "Kumasi – Adum"),
        async (input, branchName) => {
          const parsed = fingerprintTokenFormSchema.safeParse(input);
          fc.pre(parsed.success);
          if (!parsed.success) return;
          const answer = await client.initiateFingerprintToken(toFingerprintTokenRequest(parsed.data, branchName));
          expect(answer.token).toMatch(/\S/);
        },
      ),
      { numRuns: RUNS },
    );
  });
});

async function listCalls(): Promise<Array<{ status: number; fields: Record<string, unknown> }>> {
  const response = await fetch(`${sandbox.url}/sandbox/api/calls`);
  return ((await response.json()) as { calls: Array<{ status: number; fields: Record<string, unknown> }> }).calls;
}
