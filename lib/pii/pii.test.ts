import fs from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/env";
import { canonicalJson, computeIdNumberIndex, computeRequestFingerprint } from "./blind-index";
import { decryptField, encryptField } from "./field-encryption";
import { keyFilePath, keyIdOf, readOrCreateKeyFile, resolvePiiKeys, type PiiKeys } from "./keys";
import { lastFourOf, maskEmail, maskIdNumber, maskPhoneNumber } from "./mask";
import { scratchDirectoriesPerTest } from "@/test/kit/directories";

const keys: PiiKeys = (() => {
  const encryptionKey = randomBytes(32);
  return { encryptionKey, indexKey: randomBytes(32), encryptionKeyId: keyIdOf(encryptionKey) };
})();

const temporaryDirectory = scratchDirectoriesPerTest("pii");

describe("field encryption", () => {
  const context = "token_requests.id_number:5b7a";

  it("round-trips and never stores the plaintext", () => {
    const stored = encryptField("GHA-123456789-0", context, keys);
    expect(stored).not.toContain("123456789");
    expect(stored.startsWith(`v1.${keys.encryptionKeyId}.`)).toBe(true);
    expect(decryptField(stored, context, keys)).toBe("GHA-123456789-0");
  });

  it("uses a fresh IV every time", () => {
    expect(encryptField("same", context, keys)).not.toBe(encryptField("same", context, keys));
  });

  it("refuses a ciphertext moved to another row or column", () => {
    const stored = encryptField("GHA-123456789-0", context, keys);
    expect(() => decryptField(stored, "token_requests.id_number:other-row", keys)).toThrow(/failed authentication/);
  });

  it("refuses a tampered ciphertext", () => {
    const parts = encryptField("GHA-123456789-0", context, keys).split(".");
    const body = Buffer.from(parts[3]!, "base64url");
    body[0] = body[0]! ^ 1;
    parts[3] = body.toString("base64url");
    expect(() => decryptField(parts.join("."), context, keys)).toThrow(/failed authentication/);
  });

  it("names the key mismatch instead of failing obscurely", () => {
    const other = { ...keys, encryptionKey: randomBytes(32), encryptionKeyId: "deadbeef" };
    expect(() => decryptField(encryptField("x", context, keys), context, other)).toThrow(/encrypted with key/);
  });
});

describe("blind index", () => {
  it("finds the same number however it was written", () => {
    expect(computeIdNumberIndex("GHA-123456789-0", keys)).toBe(computeIdNumberIndex("gha1234567890", keys));
    expect(computeIdNumberIndex("GHA-123456789-0", keys)).not.toBe(computeIdNumberIndex("GHA-123456789-1", keys));
  });

  it("depends on the key", () => {
    const other = { ...keys, indexKey: randomBytes(32) };
    expect(computeIdNumberIndex("GHA-123456789-0", keys)).not.toBe(computeIdNumberIndex("GHA-123456789-0", other));
  });

  it("fingerprints requests regardless of key order", () => {
    expect(computeRequestFingerprint({ a: 1, b: { c: 2, d: [1, 2] } }, keys)).toBe(computeRequestFingerprint({ b: { d: [1, 2], c: 2 }, a: 1 }, keys));
    expect(computeRequestFingerprint({ a: 1 }, keys)).not.toBe(computeRequestFingerprint({ a: 2 }, keys));
    expect(canonicalJson({ b: undefined, a: null })).toBe('{"a":null}');
  });
});

describe("keys", () => {
  it("generates a local key pair once, keeps it with mode 0600 and reuses it", () => {
    const directory = temporaryDirectory();
    const settings = parseEnv({ PGLITE_DATA_DIR: path.join(directory, "pglite") });
    const first = resolvePiiKeys(settings);
    const second = resolvePiiKeys(settings);
    expect(first.encryptionKey.equals(second.encryptionKey)).toBe(true);
    expect(first.encryptionKey.equals(first.indexKey)).toBe(false);
    const file = keyFilePath(settings);
    expect(file).toBe(path.join(directory, "pii-keys.json"));
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it("reads an existing file rather than overwriting it", () => {
    const file = path.join(temporaryDirectory(), "pii-keys.json");
    const first = readOrCreateKeyFile(file);
    expect(readOrCreateKeyFile(file).indexKey.equals(first.indexKey)).toBe(true);
  });

  it("refuses production without keys", () => {
    const productionSource = {
      APP_ENV: "production",
      DATABASE_URL: "postgres://veridesk@db.internal/veridesk",
      AUTH_SECRET: randomBytes(32).toString("base64"),
      UPSTREAM_API_KEY: "cHVibGljOnNlY3JldA==",
      UPSTREAM_BASE_URL: "https://verify.example.com",
      APP_URL: "https://desk.example.com",
    };
    // Boot refuses first (lib/env.ts); resolvePiiKeys refuses again for settings built any other way.
    expect(() => parseEnv(productionSource)).toThrow(/PII_ENCRYPTION_KEY/);
    const withKeys = parseEnv({
      ...productionSource,
      PII_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
      PII_INDEX_KEY: randomBytes(32).toString("hex"),
    });
    expect(() => resolvePiiKeys({ ...withKeys, PII_ENCRYPTION_KEY: undefined, PII_INDEX_KEY: undefined })).toThrow(
      /PII_ENCRYPTION_KEY and PII_INDEX_KEY are required/,
    );
    const keys = resolvePiiKeys(withKeys);
    expect(keys.encryptionKey).toHaveLength(32);
    expect(keys.indexKey).toHaveLength(32);
  });

  it("refuses the same key for both uses, and only one of the two", () => {
    const key = randomBytes(32).toString("base64");
    // Boot refuses it (lib/env.ts); resolvePiiKeys refuses again for settings built any other way.
    expect(() => parseEnv({ PII_ENCRYPTION_KEY: key, PII_INDEX_KEY: key })).toThrow(/PII_INDEX_KEY: must be a different key/);
    expect(() => resolvePiiKeys({ ...parseEnv({}), PII_ENCRYPTION_KEY: key, PII_INDEX_KEY: key })).toThrow(/different keys/);
    expect(() => resolvePiiKeys(parseEnv({ PII_ENCRYPTION_KEY: key }))).toThrow(/both/);
  });

  it("the env schema refuses keys that are not 32 bytes", () => {
    expect(() => parseEnv({ PII_ENCRYPTION_KEY: "short" })).toThrow(/PII_ENCRYPTION_KEY/);
    expect(() => parseEnv({ PII_INDEX_KEY: randomBytes(16).toString("base64") })).toThrow(/PII_INDEX_KEY/);
  });
});

describe("masks", () => {
  it("masks ID numbers by type", () => {
    expect(lastFourOf("GHA-123456789-0")).toBe("7890");
    expect(maskIdNumber("GHANA_CARD", "7890")).toBe("GHA-•••••789-0");
    expect(maskIdNumber("PASSPORT", "4567")).toBe("••••4567");
  });
  it("masks phone numbers and e-mail addresses", () => {
    expect(maskPhoneNumber("0241234567")).toBe("024 ••• 4567");
    expect(maskEmail("ama.mensah@example.com")).toBe("a•••@example.com");
    expect(maskEmail("nope")).toBe("•••");
  });
});

describe("maskFreeText (ADR 0023)", () => {
  it("masks a phone number however it is written, and nothing else", async () => {
    const { maskFreeText } = await import("./mask");
    expect(maskFreeText("0241234567")).toBe("024 ••• 4567");
    expect(maskFreeText("+233 24 123 4567")).toBe("+233 ••••• 4567");
    expect(maskFreeText("Acct 024-123-4567 (Ama)")).toBe("Acct 024 ••• 4567 (Ama)");
    expect(maskFreeText("ACC-123456")).toBe("ACC-123456");
    // A long run may be two phones: masked too (it was kept, and "0241234567 0201234567" came out whole).
    expect(maskFreeText("DBLCLICK-1732476000000")).toBe("DBLCLICK-173 •••••• 0000");
  });

  it("keeps at most the prefix and last four digits of a phone in the masked copy", async () => {
    const fc = await import("fast-check");
    const { maskFreeText } = await import("./mask");
    fc.assert(
      fc.property(fc.stringMatching(/^0[2-5][0-9]{8}$/), fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), (phone, before, after) => {
        const masked = maskFreeText(`${before.replace(/\d/g, "x")} ${phone} ${after.replace(/\d/g, "x")}`);
        expect(masked).not.toMatch(/\d{5,}/);
        expect(masked.replace(/\D/g, "")).toBe(`${phone.slice(0, 3)}${phone.slice(-4)}`);
      }),
    );
  });
});

describe("maskFreeText: one rule for every free text that leaves the app", () => {
  const separators = [" ", ".", "-", "/", "(", ")", " - ", ". ", "\u00a0", "\u200b", "\u2060", "\ufeff", "\u00ad", ",", "_", "\u2013"];
  /** Digits of other scripts that a keyboard or a paste may give: Arabic-Indic, Devanagari, fullwidth, mathematical. */
  const zeros = [0x30, 0x660, 0x6f0, 0x966, 0xff10, 0x1d7ce, 0x1d7ec];

  it("shows a reference stored under the older rule masked in every output, and an erased one as its note", async () => {
    const { displayReference } = await import("./erasure-note");
    const { maskedExportColumns } = await import("@/lib/review/csv-columns");
    const older = "0241234567 0201234567";
    expect(displayReference(older, { contactErasedAt: null, contactErasedUnder: null })).toBe("024 ••••••••••••• 4567");
    expect(displayReference("024 ••• 4567", { contactErasedAt: null, contactErasedUnder: null })).toBe("024 ••• 4567");
    expect(displayReference(null, { contactErasedAt: new Date("2031-03-03T10:00:00Z"), contactErasedUnder: "retention" })).toBe("erased on 3 Mar 2031 under the retention policy");
    const referenceColumn = maskedExportColumns.find((column) => column.header === "Reference")!;
    expect(referenceColumn.value({ reference: older, contactErasedAtMs: null, contactErasedUnder: null } as never)).toBe("024 ••••••••••••• 4567");
  });

  it("masks the forms the review found and their neighbours", async () => {
    const { maskFreeText } = await import("./mask");
    expect(maskFreeText("0241234567 0201234567")).toBe("024 ••••••••••••• 4567");
    expect(maskFreeText("024.123.4567")).toBe("024 ••• 4567");
    expect(maskFreeText("(024) 123-4567 / 020 123 4567")).toBe("(024 ••••••••••••• 4567");
    expect(maskFreeText("+233 (0)24 123 4567")).toBe("+233 •••••• 4567");
    expect(maskFreeText("\u0660\u0662\u0664\u0661\u0662\u0663\u0664\u0665\u0666\u0667")).toBe("024 ••• 4567");
    expect(maskFreeText("024\u200b123\u200b4567")).toBe("024 ••• 4567");
    expect(maskFreeText("card GHA 123 456 789 0, mail ama.mensah@example.com")).toBe("card GHA-•••••789-0, mail a•••@example.com");
    expect(maskFreeText("ACC-123456")).toBe("ACC-123456");
    expect(maskFreeText("Loan 26/118")).toBe("Loan 26/118");
  });

  it("never lets 5 digits of a phone or card through, however written, and is its own fixed point", async () => {
    const fc = await import("fast-check");
    const { maskFreeText } = await import("./mask");
    const digitIn = (zero: number, value: number) => String.fromCodePoint(zero + value);
    const written = fc.record({
      phones: fc.array(fc.stringMatching(/^(0[2-5][0-9]{8}|233[2-5][0-9]{8})$/), { minLength: 1, maxLength: 3 }),
      separator: fc.constantFrom(...separators),
      between: fc.constantFrom(" ", "", " / ", "; ", "\n"),
      zero: fc.constantFrom(...zeros),
      prefix: fc.constantFrom("", "+", "Tel: ", "ref "),
      before: fc.string({ maxLength: 6 }).map((text) => text.replace(/[\p{N}]/gu, "x")),
    });
    fc.assert(
      fc.property(written, ({ phones, separator, between, zero, prefix, before }) => {
        const typed = phones
          .map((phone) => {
            const groups = phone.match(/.{1,3}/g)!;
            return groups.map((group) => [...group].map((digit) => digitIn(zero, Number(digit))).join("")).join(separator);
          })
          .join(between);
        const masked = maskFreeText(`${before}${prefix}${typed}`);
        // At most three and four digits per run are left, and never five together.
        expect(masked.replace(/\D/g, "").length).toBeLessThanOrEqual(7 * phones.length);
        expect(masked).not.toMatch(/\d(?:[^\p{L}\p{N}]{0,3}\d){4,}/u);
        expect(maskFreeText(masked)).toBe(masked);
      }),
      { numRuns: 2_000 },
    );
  });

  it("masks a Ghana Card number and an e-mail in any surrounding text", async () => {
    const fc = await import("fast-check");
    const { maskFreeText } = await import("./mask");
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{10}$/), fc.constantFrom(...separators), fc.constantFrom("GHA", "gha", "Gha"), (digits, separator, prefix) => {
        const card = `${prefix}${separator}${digits.slice(0, 9)}${separator}${digits.slice(9)}`;
        const masked = maskFreeText(`ID ${card} seen`);
        expect(masked.replace(/\D/g, "")).toBe(digits.slice(6));
      }),
      { numRuns: 500 },
    );
    expect(maskFreeText("write to KOFI.Boateng+loans@bank.example.com.gh today")).toBe("write to K•••@bank.example.com.gh today");
  });
});

