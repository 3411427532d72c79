import "server-only";
import { stringify } from "csv-stringify/sync";
import { neutraliseFormula } from "./csv-cell";

/**
 * Streaming CSV for the review exports (ADRs 0011, 0013). Rows come a page at a time (the export
 * queries read the database in keyset pages) and leave as UTF-8 chunks of at most 64 KiB: a BOM
 * so Excel reads accents and the "•" of masked numbers right, a header row, CRLF line ends,
 * RFC 4180 quoting.
 *
 * The stream is pulled, never pushed: the next page is read only when the consumer (Next writing
 * to the socket, which waits for the socket to drain) asks for more, so a slow download holds
 * one page in memory and a cancelled one stops reading the database.
 *
 * Formula injection: a cell whose text starts with = + - @ (or their full-width forms), a tab or
 * a carriage return is prefixed with an apostrophe (`neutraliseFormula`, the one guard the
 * browser-built customer record uses too), so a reference typed as `=HYPERLINK(...)` is shown as
 * text by Excel, LibreOffice and Numbers instead of being run. Numbers we write ourselves (counts,
 * seconds) are passed as numbers and never prefixed, so "-3" stays a number.
 *
 * Each page goes through csv-stringify's synchronous API in one call and is encoded straight into
 * fixed 64 KiB buffers: no stream of per-row objects, no Date per row (ADR 0013).
 */

export type CsvCell = string | number | boolean | Date | null | undefined;

export type CsvColumn<Row> = {
  header: string;
  value: (row: Row) => CsvCell;
};

const byteOrderMark = "\uFEFF";

/**
 * csv-stringify does the quoting, our own guard each text cell (its `escape_formulas` would be a
 * second list to keep in step with the browser's). Besides the delimiter, quotes and CRLF, a
 * lone LF or CR is quoted too (`quoted_match`), or a spreadsheet would break the row there.
 */
const csvOptions = {
  record_delimiter: "windows",
  quoted_match: /[\r\n]/,
  cast: {
    string: neutraliseFormula,
    date: (value: Date) => value.toISOString(),
    boolean: (value: boolean) => (value ? "yes" : "no"),
  },
} as const;

/** Largest chunk handed to the response. Also keeps every string and buffer here small. */
const chunkBytes = 64 * 1024;
const encoder = new TextEncoder();

/**
 * UTF-8 into fixed 64 KiB buffers, which become the response's chunks: no Buffer per page, and
 * no chunk too large for the socket to take at once.
 */
class ChunkWriter {
  private chunk = new Uint8Array(chunkBytes);
  private used = 0;

  constructor(private readonly emit: (bytes: Uint8Array) => void) {}

  write(text: string): void {
    let rest = text;
    for (;;) {
      const { read, written } = encoder.encodeInto(rest, this.chunk.subarray(this.used));
      this.used += written;
      if (read === rest.length) return;
      this.flush();
      rest = rest.slice(read);
    }
  }

  flush(): void {
    if (this.used === 0) return;
    this.emit(this.chunk.subarray(0, this.used));
    this.chunk = new Uint8Array(chunkBytes);
    this.used = 0;
  }
}

/**
 * CSV text as a pull-based web stream, for a route handler's Response: the BOM and header row
 * first, then each page's rows. `highWaterMark: 0` — nothing is read ahead of the consumer.
 * Cancelling the stream (the client went away) ends the page source (its `return`), so no further
 * query runs; a failing source errors the stream, so the download ends as failed rather than
 * truncated-but-looking-complete.
 */
export function csvPagedWebStream<Row>(
  columns: readonly CsvColumn<Row>[],
  pages: AsyncIterable<readonly Row[]> | Iterable<readonly Row[]>,
): ReadableStream<Uint8Array> {
  let iterator: AsyncIterator<readonly Row[]> | Iterator<readonly Row[]> | undefined;
  let isCancelled = false;
  return new ReadableStream<Uint8Array>(
    {
      pull: async (controller) => {
        const writer = new ChunkWriter((bytes) => controller.enqueue(bytes));
        if (!iterator) {
          iterator = Symbol.asyncIterator in pages ? pages[Symbol.asyncIterator]() : pages[Symbol.iterator]();
          writer.write(byteOrderMark + stringify([columns.map((column) => column.header)], csvOptions));
          writer.flush();
          return;
        }
        for (;;) {
          const page = await iterator.next();
          if (isCancelled) return;
          if (page.done) {
            controller.close();
            return;
          }
          if (page.value.length === 0) continue;
          // One page at a time: a page's text (250 rows, ~85 KB even as two-byte characters) stays
          // below V8's 128 KiB limit for ordinary objects (ADR 0013).
          writer.write(stringify(page.value.map((row) => columns.map((column) => column.value(row))), csvOptions));
          writer.flush();
          return;
        }
      },
      cancel: async () => {
        isCancelled = true;
        await iterator?.return?.();
      },
    },
    { highWaterMark: 0 },
  );
}

/** The same for a source of single rows (grouped into chunks of a few hundred rows). */
export function csvWebStream<Row>(columns: readonly CsvColumn<Row>[], rows: AsyncIterable<Row> | Iterable<Row>): ReadableStream<Uint8Array> {
  return csvPagedWebStream(columns, inPages(rows, rowsPerPage));
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

/** Rows grouped for `csvPagedWebStream` when a source yields them one by one. */
const rowsPerPage = 250;

async function* inPages<Row>(rows: AsyncIterable<Row> | Iterable<Row>, size: number): AsyncGenerator<Row[]> {
  let page: Row[] = [];
  for await (const row of rows) {
    page.push(row);
    if (page.length === size) {
      yield page;
      page = [];
    }
  }
  if (page.length > 0) yield page;
}
