/**
 * The one formula guard of every CSV Veridesk writes: the server's streamed exports
 * (lib/review/csv.ts) and the customer's record built in the browser
 * (components/compliance/customer-record-view.tsx). No server import, so both may use it.
 *
 * A cell whose text starts with = + - @, their full-width forms (＝ ＋ － ＠, which Excel and
 * Numbers read as the ASCII ones), a tab or a carriage return is prefixed with an apostrophe:
 * `=HYPERLINK(...)` typed as a reason is shown as text instead of being run. Only text is guarded;
 * numbers we write ourselves ("-3") are never passed here.
 */
const formulaStart = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

export function neutraliseFormula(value: string): string {
  return formulaStart.test(value) ? `'${value}` : value;
}

/**
 * One text cell of a CSV line, guarded and quoted as RFC 4180 says (a quote, comma or line break
 * inside means quotes around it, inner quotes doubled); a lone CR or LF is quoted too, or a
 * spreadsheet would break the row there.
 */
export function csvTextCell(value: string): string {
  const safe = neutraliseFormula(value);
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
