/**
 * The example a phone field shows, apart from the parser (`phone.ts`, which loads the phone
 * metadata): a form page shows it without loading the parser (ADR 0034).
 */
export const phoneExample = "024 123 4567";
