/**
 * What a teller pastes is not what they see: copied text brings no-break spaces, zero-width
 * characters, typographic dashes and sometimes digits from another script. These helpers make
 * the harmless differences disappear and let the validators refuse the harmful ones by name.
 *
 * Plain data and functions only: imported by client components and the server alike.
 */

// Any dash-like character a word processor or a web page may have put in place of "-".
const dashLikeCharacters = /[\u2010-\u2015\u2212\uFE58\uFE63\uFF0D]/g;
// Invisible format characters (zero-width space/joiners, BOM, soft hyphen, direction marks).
const invisibleCharacters = /\p{Cf}/gu;
const spaceLikeCharacters = /[\p{Zs}\t\r\n\v\f]+/gu;
const foreignDigit = /(?![0-9])\p{Nd}/u;
const controlCharacter = /\p{Cc}/u;

/** Removes invisible characters, turns every kind of space into " " and every dash into "-", trims. */
export function cleanPastedText(raw: string): string {
  return raw
    .replace(invisibleCharacters, "")
    .replace(dashLikeCharacters, "-")
    .replace(spaceLikeCharacters, " ")
    .trim();
}

/**
 * True when the text holds a decimal digit other than 0–9 (Arabic-Indic, Devanagari, full-width…).
 * Such digits look right on screen but are different characters: an ID number containing them
 * would be sent to the service as something else, so the validators refuse them with a message
 * saying why instead of a generic "wrong format".
 */
export function hasForeignDigits(text: string): boolean {
  return foreignDigit.test(text);
}

export function hasControlCharacters(text: string): boolean {
  return controlCharacter.test(text);
}

export const foreignDigitsMessage =
  "Use the digits 0–9 only. This contains digits from another script, which often comes from pasting.";
