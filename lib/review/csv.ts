import "server-only";
import { Readable } from "node:stream";
import { stringify } from "csv-stringify";

/**
 * Streaming CSV for the review exports (ADR 0011). Rows come from an async iterable (the export
 * query reads the database in keyset pages), go through csv-stringify — quoting, a UTF-8 BOM so
 * Excel reads accents and the "•" of masked numbers right, and its `escape_formulas` guard — and
 * leave as a web stream, with backpressure all the way: the server never holds the whole file.
 *
 * Formula injection: a cell whose text starts with = + - @ (or their full-width forms), a tab or
 * a carriage return is prefixed with an apostrophe, so a reference typed as `=HYPERLINK(...)` is
 * shown as text by Excel, LibreOffice and Numbers instead of being run. Numbers we write ourselves
 * (counts, seconds) are passed as numbers and never prefixed, so "-3" stays a number.
 */

export type CsvCell = string | number | boolean | Date | null | undefined;

export type CsvColumn<Row> = {
  header: string;
  value: (row: Row) => CsvCell;
};

const csvOptions = {
  bom: true,
  header: true,
  escape_formulas: true,
  record_delimiter: "windows",
  cast: {
    date: (value: Date) => value.toISOString(),
    boolean: (value: boolean) => (value ? "yes" : "no"),
  },
} as const;

/** A Node stream of CSV text (BOM, header row, then one line per row). */
export function csvNodeStream<Row>(columns: readonly CsvColumn<Row>[], rows: AsyncIterable<Row> | Iterable<Row>): Readable {
  const headers = columns.map((column) => column.header);
  const records = Readable.from(mapRows(rows, columns), { objectMode: true });
  const stringifier = stringify({ ...csvOptions, columns: headers.map((_, index) => ({ key: String(index), header: headers[index]! })) });
  // A failed read (the database went away mid-export) must end the download as failed, not
  // truncated-but-looking-complete: the error is passed on, and the response stream aborts.
  records.on("error", (error) => stringifier.destroy(error));
  return records.pipe(stringifier);
}

/** The same as a web ReadableStream, for a route handler's Response. */
export function csvWebStream<Row>(columns: readonly CsvColumn<Row>[], rows: AsyncIterable<Row> | Iterable<Row>): ReadableStream<Uint8Array> {
  return Readable.toWeb(csvNodeStream(columns, rows)) as ReadableStream<Uint8Array>;
}

/** A download response: no caching anywhere (the file holds customer data), a safe file name. */
export function csvResponse(body: ReadableStream<Uint8Array>, fileName: string): Response {
  const safeName = fileName.replace(/[^A-Za-z0-9._-]/g, "_");
  return new Response(body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${safeName}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}

async function* mapRows<Row>(rows: AsyncIterable<Row> | Iterable<Row>, columns: readonly CsvColumn<Row>[]): AsyncGenerator<Record<string, CsvCell>> {
  for await (const row of rows) {
    const record: Record<string, CsvCell> = {};
    columns.forEach((column, index) => {
      record[String(index)] = column.value(row);
    });
    yield record;
  }
}
