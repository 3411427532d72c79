/**
 * The customer ID documents a token can be issued against, each described ONCE: its label, its
 * number field (the form's name, label, hint, how it is checked, the provider's field name, an
 * example), whether the provider needs a date of birth beside it, and how the number shows masked.
 *
 * Every reader derives from this list rather than keeping a table of its own: the database enum
 * (lib/db/schema.ts), the form's shape and its browser rules and the server's zod union
 * (lib/validation/token-form-*.ts), the provider's body (lib/validation/remote-token-payload.ts,
 * lib/upstream), the integration API (lib/api), the restart fields, the masks, the labels of the
 * review and live screens, and the form's rendering (components/tokens/remote-token-form.tsx).
 * id-types.test.tsx fails when a type listed here is missing from any of them. Adding a type is
 * one descriptor here, a migration for the enum, and the sandbox's own list (it is the provider's
 * stand-in and imports nothing of the app's).
 *
 * Plain data with no import, so every layer may read it, the browser included (it is in the
 * base layer of .dependency-cruiser.cjs).
 */

/** How a number is checked: the Ghana Card's own rule, or a document number's letters and digits. */
export type IdNumberCheck =
  | { kind: "ghana-card" }
  | {
      kind: "document";
      /** As the messages name it: "Enter the {noun}." */
      noun: string;
      /** What the number must be once spaces are removed and letters upper-cased. */
      pattern: RegExp;
      formatMessage: string;
    };

export type IdTypeDescriptor = {
  type: string;
  /** The type as staff read it: radio buttons, lists, filters, sentences. */
  label: string;
  number: {
    /** The form field's name (and the restart field's, the error's, the API's mapping's). */
    field: string;
    label: string;
    hint: string;
    check: IdNumberCheck;
    /** The remote token call's field name for it. */
    providerField: string;
    /** A valid number, normalised: the API document's example and the readers' test. */
    example: string;
  };
  /** The date of birth the provider needs beside the number, or null. */
  dateOfBirth: { providerField: string; hint: string } | null;
  /** The number masked from its last four letters and digits; unset: `••••` and the four. */
  maskLastFour?: (lastFour: string) => string;
};

const hidden = "•";

export const ID_TYPE_DESCRIPTORS = [
  {
    type: "GHANA_CARD",
    label: "Ghana Card",
    number: {
      field: "ghanaCardNumber",
      label: "Ghana Card number",
      hint: "With or without dashes; formatted as you type.",
      check: { kind: "ghana-card" },
      providerField: "ghanacardnumber",
      example: "GHA-123456789-0",
    },
    dateOfBirth: null,
    // `GHA-123456789-0` → `GHA-•••••789-0`: the card's own layout, so the customer recognises it.
    maskLastFour: (lastFour: string) => (lastFour.length === 4 ? `GHA-${hidden.repeat(5)}${lastFour.slice(0, 3)}-${lastFour.slice(3)}` : `${hidden.repeat(4)}${lastFour}`),
  },
  {
    type: "VOTER",
    label: "Voter ID",
    number: {
      field: "voterId",
      label: "Voter ID number",
      hint: "As printed on the voter ID card.",
      // The spec says only "string" for the other documents: loose on purpose, strict only about
      // what would certainly be a typing or pasting mistake.
      check: {
        kind: "document",
        noun: "voter ID number",
        pattern: /^[A-Z0-9]{5,20}$/,
        formatMessage: "A voter ID number is 5 to 20 letters and digits, as printed on the card.",
      },
      providerField: "voterid",
      example: "1234567890",
    },
    dateOfBirth: null,
  },
  {
    type: "PASSPORT",
    label: "Passport",
    number: {
      field: "passportNumber",
      label: "Passport number",
      hint: "As printed on the passport's data page, e.g. G1234567.",
      check: {
        kind: "document",
        noun: "passport number",
        pattern: /^[A-Z0-9]{6,15}$/,
        formatMessage: "A passport number is 6 to 15 letters and digits, e.g. G1234567.",
      },
      providerField: "passportnumber",
      example: "G1234567",
    },
    dateOfBirth: null,
  },
  {
    type: "DRIVER_LICENCE",
    label: "Driver licence",
    number: {
      field: "driverLicenceNumber",
      label: "Driver licence number",
      hint: "The licence's ID or reference number, as printed.",
      check: {
        kind: "document",
        noun: "driver licence number",
        pattern: /^[A-Z0-9][A-Z0-9/-]{3,29}$/,
        formatMessage: "A driver licence number is 4 to 30 letters, digits, dashes or slashes, as printed on the licence.",
      },
      providerField: "driverid",
      example: "FAT-123456-78/9",
    },
    // The youngest holder of a Ghana driving licence is 18 (DVLA; lib/validation/identity-documents.ts).
    dateOfBirth: { providerField: "dob", hint: "Day, month, year as on the licence, e.g. 07/03/1990; the holder is 18 or older." },
  },
] as const satisfies readonly IdTypeDescriptor[];

type Descriptor = (typeof ID_TYPE_DESCRIPTORS)[number];

export type IdType = Descriptor["type"];

/** The descriptor of one type, with its literal field names. */
export type IdTypeDescriptorOf<Type extends IdType> = Extract<Descriptor, { type: Type }>;

/** The form field holding a type's number. */
type IdNumberFieldOf<Type extends IdType> = IdTypeDescriptorOf<Type>["number"]["field"];

/** The types whose provider call carries a date of birth. */
export type IdTypeWithDateOfBirth = Extract<Descriptor, { dateOfBirth: { providerField: string } }>["type"];

/** The ID fields one type adds to a remote token's form: its number, and a date of birth if it needs one. */
export type IdFieldsOf<Type extends IdType> = { [Field in IdNumberFieldOf<Type>]: string } & (Type extends IdTypeWithDateOfBirth ? { dateOfBirth: string } : unknown);

/** The provider's ID fields of one type, under the provider's names. */
export type ProviderIdFieldsOf<Type extends IdType> = { [Field in IdTypeDescriptorOf<Type>["number"]["providerField"]]: string } & (Type extends IdTypeWithDateOfBirth
  ? { [Field in Extract<IdTypeDescriptorOf<Type>["dateOfBirth"], { providerField: string }>["providerField"]]: string }
  : unknown);

// A tuple, as pgEnum and z.enum want it.
export const ID_TYPES = ID_TYPE_DESCRIPTORS.map((descriptor) => descriptor.type) as unknown as readonly [IdType, ...IdType[]];

const descriptorByType = new Map<string, IdTypeDescriptor>(ID_TYPE_DESCRIPTORS.map((descriptor) => [descriptor.type, descriptor]));

export function isIdType(value: unknown): value is IdType {
  return typeof value === "string" && descriptorByType.has(value);
}

export function idTypeDescriptor<Type extends IdType>(type: Type): IdTypeDescriptorOf<Type> {
  return descriptorByType.get(type) as IdTypeDescriptorOf<Type>;
}

/** The date-of-birth field's name in the forms: the same for every type that needs one. */
export const DATE_OF_BIRTH_FIELD = "dateOfBirth";

/** Whether a type's provider call carries a date of birth beside the number. */
export function needsDateOfBirth(type: IdType): type is IdTypeWithDateOfBirth {
  return idTypeDescriptor(type).dateOfBirth !== null;
}

export const idTypeLabels = Object.fromEntries(ID_TYPE_DESCRIPTORS.map((descriptor) => [descriptor.type, descriptor.label])) as Record<IdType, string>;

/** The ID fields of each type, in the order the form shows them: the number, then the date of birth. */
export function idFieldsOf(type: IdType): readonly string[] {
  const descriptor: IdTypeDescriptor = idTypeDescriptor(type);
  return descriptor.dateOfBirth ? [descriptor.number.field, DATE_OF_BIRTH_FIELD] : [descriptor.number.field];
}

/** Every ID field of every type, each once. */
export const ALL_ID_FIELDS: readonly string[] = [...new Set(ID_TYPES.flatMap(idFieldsOf))];
