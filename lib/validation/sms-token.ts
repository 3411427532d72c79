import { z } from "zod";
import { cleanPastedText } from "./pasted-text";

/**
 * The token a supervisor types from the customer's SMS, to attach to an issuing attempt whose
 * answer never came (ADRs 0017, 0037). The provider's tokens are upper-case letters and digits
 * (8–9 in its examples; the length is not fixed), so spaces and dashes a customer reads out are
 * dropped and the letters upper-cased.
 *
 * Read aloud, the letter O and the digit 0 sound alike, and so do I and 1. Veridesk never tries
 * the swapped spellings with the service on its own: each try is a probe for someone else's token
 * (ADR 0037). It keeps what was typed, shows it grouped with the look-alikes told apart, and when
 * the service does not know it, says which characters to check with the customer.
 */
export const smsTokenMessages = {
  required: "Type the token from the customer's SMS.",
  shape: "A token is letters and digits only, like X7Q3BMSAB. Check the SMS again.",
  lookAlikes: "Tokens can mix the letter O and the digit 0, and I and 1: check those characters with the customer.",
} as const;

/** Upper case, no spaces or dashes: the token as the service spells it (not checked for shape). */
export function normaliseSmsToken(raw: string): string {
  return cleanPastedText(raw).replace(/[\s-]/g, "").toUpperCase();
}

export const smsTokenSchema = z.string().transform((raw, context) => {
  const cleaned = normaliseSmsToken(raw);
  if (cleaned === "") {
    context.addIssue({ code: "custom", message: smsTokenMessages.required });
    return z.NEVER;
  }
  // Only ASCII letters and digits pass: control characters, look-alike digits and SQL never reach the database.
  if (!/^[A-Z0-9]{4,32}$/.test(cleaned)) {
    context.addIssue({ code: "custom", message: smsTokenMessages.shape });
    return z.NEVER;
  }
  return cleaned;
});

export const attachSmsTokenSchema = z.object({
  tokenRequestId: z.uuid(),
  token: smsTokenSchema,
});

export type AttachSmsTokenInput = z.input<typeof attachSmsTokenSchema>;

const lookAlikeCharacters = new Set(["O", "0", "I", "1"]);

/** True when the token holds a character that is easily heard or typed as another (O/0, I/1). */
export function hasLookAlikeCharacters(token: string): boolean {
  return [...normaliseSmsToken(token)].some((character) => lookAlikeCharacters.has(character));
}

export type TokenCharacter = { character: string; kind: "letter" | "digit"; isLookAlike: boolean };

/**
 * The token in groups of three (as it is read out: "O2G 51B 1O"), each character saying whether it
 * is a letter or a digit, so the form can tell O from 0 and I from 1 on screen and to a reader.
 */
export function groupSmsToken(raw: string, size = 3): TokenCharacter[][] {
  const characters = [...normaliseSmsToken(raw)].filter((character) => /[A-Z0-9]/.test(character));
  const groups: TokenCharacter[][] = [];
  for (let start = 0; start < characters.length; start += size) {
    groups.push(
      characters.slice(start, start + size).map((character) => ({
        character,
        kind: /[0-9]/.test(character) ? "digit" : "letter",
        isLookAlike: lookAlikeCharacters.has(character),
      })),
    );
  }
  return groups;
}

const spokenNames: Record<string, string> = { "0": "zero", "1": "one" };

/** "letter O, digit zero, …": what a screen reader says for the grouped token. */
export function spellSmsToken(raw: string): string {
  return groupSmsToken(raw)
    .flat()
    .map(({ character, kind }) => `${kind} ${spokenNames[character] ?? character}`)
    .join(", ");
}
