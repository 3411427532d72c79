/**
 * A minimal RFC 4180 reader for tests of our CSV output (quoted fields, doubled quotes, CRLF or
 * LF, line breaks inside quotes). Deliberately not the code that writes the CSV, so each checks
 * the other. Strips a leading BOM.
 */
export function parseCsv(text: string): string[][] {
  const input = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const records: string[][] = [];
  let record: string[] = [];
  let field = "";
  let isQuoted = false;
  let index = 0;
  while (index < input.length) {
    const char = input[index]!;
    if (isQuoted) {
      if (char === '"' && input[index + 1] === '"') {
        field += '"';
        index += 2;
        continue;
      }
      if (char === '"') isQuoted = false;
      else field += char;
      index += 1;
      continue;
    }
    if (char === '"' && field === "") {
      isQuoted = true;
    } else if (char === ",") {
      record.push(field);
      field = "";
    } else if (char === "\r" && input[index + 1] === "\n") {
      record.push(field);
      records.push(record);
      record = [];
      field = "";
      index += 1;
    } else if (char === "\n") {
      record.push(field);
      records.push(record);
      record = [];
      field = "";
    } else {
      field += char;
    }
    index += 1;
  }
  if (field !== "" || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  return records;
}
