import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { parseCsv } from "@/test/kit/csv";
import { csvPagedWebStream, csvResponse, csvWebStream, type CsvColumn } from "./csv";

type Row = { reference: string; count: number; at: Date; masked: string };
const columns: CsvColumn<Row>[] = [
  { header: "Reference", value: (row) => row.reference },
  { header: "Count", value: (row) => row.count },
  { header: "At", value: (row) => row.at },
  { header: "ID number", value: (row) => row.masked },
];

async function readAll(rows: Iterable<Row> | AsyncIterable<Row>): Promise<string> {
  return Buffer.from(await new Response(csvWebStream(columns, rows)).arrayBuffer()).toString("utf8");
}

const at = new Date("2026-11-20T09:30:00.000Z");

describe("review CSV", () => {
  it("starts with a UTF-8 BOM and the header row, lines end with CRLF", async () => {
    const text = await readAll([{ reference: "0241234567", count: 3, at, masked: "GHA-•••••789-0" }]);
    expect(text.charCodeAt(0)).toBe(0xfeff);
    expect(text.slice(1)).toBe("Reference,Count,At,ID number\r\n0241234567,3,2026-11-20T09:30:00.000Z,GHA-•••••789-0\r\n");
  });

  it("writes the BOM and header even when there are no rows", async () => {
    expect(await readAll([])).toBe("\uFEFFReference,Count,At,ID number\r\n");
  });

  it.each(["=HYPERLINK(\"http://evil.example\",\"click\")", "+1+1", "-2+3", "@SUM(A1)", "\tcmd", "\rcmd", "＝1+1"])(
    "neutralises a cell starting with a formula character: %j",
    async (reference) => {
      const text = await readAll([{ reference, count: -3, at, masked: "x" }]);
      const [, record] = parseCsv(text);
      expect(record?.[0]).toBe(`'${reference}`);
      // Our own numbers stay numbers, even negative ones.
      expect(record?.[1]).toBe("-3");
    },
  );

  it("quotes commas, quotes and line breaks so every value comes back as it was", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.string({ unit: "grapheme" }), { minLength: 1, maxLength: 5 }), async (references) => {
        const rows = references.map((reference) => ({ reference, count: 1, at, masked: "••••1234" }));
        const text = await readAll(rows);
        const records = parseCsv(text);
        expect(records).toHaveLength(rows.length + 1);
        records.slice(1).forEach((record, index) => {
          const original = references[index]!;
          const isFormula = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/.test(original);
          expect(record[0]).toBe(isFormula ? `'${original}` : original);
        });
      }),
      { numRuns: 200 },
    );
  });

  it("quotes a lone line feed or carriage return, so a spreadsheet keeps the row whole", async () => {
    const text = await readAll([{ reference: "line one\nline two", count: 1, at, masked: "a\rb" }]);
    expect(text).toContain('"line one\nline two"');
    expect(text).toContain('"a\rb"');
    expect(parseCsv(text)[1]).toEqual(["line one\nline two", "1", at.toISOString(), "a\rb"]);
  });

  it("streams from an async source and gives a web stream for a Response", async () => {
    async function* rows() {
      for (let index = 0; index < 3; index++) yield { reference: `R${index}`, count: index, at, masked: "m" };
    }
    const response = csvResponse(csvWebStream(columns, rows()), "tokens 2026/11/20.csv");
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="tokens_2026_11_20.csv"');
    expect(response.headers.get("cache-control")).toBe("no-store");
    const text = await response.text();
    expect(text.split("\r\n")).toHaveLength(5);
  });

  it("fails the stream when the source fails, instead of ending it as if complete", async () => {
    async function* failing() {
      yield { reference: "R1", count: 1, at, masked: "m" };
      throw new Error("database went away");
    }
    await expect(readAll(failing())).rejects.toThrow("database went away");
  });

  it("splits a long file into chunks of at most 64 KiB without breaking a character", async () => {
    const rows = Array.from({ length: 3_000 }, (_, index) => ({ reference: `R${index} • ${"é".repeat(40)}`, count: index, at, masked: "GHA-•••••789-0" }));
    const chunks: Uint8Array[] = [];
    const reader = csvPagedWebStream(columns, [rows.slice(0, 1_000), rows.slice(1_000)]).getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(read.value);
    expect(Math.max(...chunks.map((chunk) => chunk.byteLength))).toBeLessThanOrEqual(64 * 1024);
    expect(chunks.length).toBeGreaterThan(3);
    // Each chunk decodes on its own: no character is cut in two.
    const decoded = chunks.map((chunk) => new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(chunk)).join("");
    expect(decoded).toBe(await readAll(rows));
  });

  it("reads the next page only when the consumer asks, and stops reading when cancelled", async () => {
    let pagesRead = 0;
    let isClosed = false;
    async function* pages() {
      try {
        for (let index = 0; index < 100; index++) {
          pagesRead++;
          yield [{ reference: `R${index}`, count: index, at, masked: "m" }];
        }
      } finally {
        isClosed = true;
      }
    }
    const reader = csvPagedWebStream(columns, pages()).getReader();
    expect(pagesRead).toBe(0);
    await reader.read(); // BOM and header
    expect(pagesRead).toBe(0);
    await reader.read();
    await reader.read();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(pagesRead).toBe(2);
    await reader.cancel();
    expect(isClosed).toBe(true);
    expect(pagesRead).toBe(2);
  });
});
