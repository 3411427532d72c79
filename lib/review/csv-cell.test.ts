import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { csvTextCell, neutraliseFormula } from "./csv-cell";
import { parseCsv } from "@/test/kit/csv";

describe("the CSV formula guard shared by the server's exports and the browser's customer record", () => {
  it.each([
    ["=", "=HYPERLINK(\"http://attacker.example\",\"x\")"],
    ["+", "+1+1"],
    ["-", "-2+3"],
    ["@", "@SUM(A1)"],
    ["tab", "\tcmd"],
    ["carriage return", "\rcmd"],
    ["full-width ＝ (U+FF1D)", "＝HYPERLINK(\"http://attacker.example\")"],
    ["full-width ＋ (U+FF0B)", "＋1＋1"],
    ["full-width － (U+FF0D)", "－2＋3"],
    ["full-width ＠ (U+FF20)", "＠SUM(A1)"],
  ])("neutralises a cell starting with %s", (_, value) => {
    expect(neutraliseFormula(value)).toBe(`'${value}`);
    expect(parseCsv(`${csvTextCell(value)}\r\n`)[0]![0]).toBe(`'${value}`);
  });

  it("leaves other text alone, a formula character further in included", () => {
    for (const value of ["Court order 2026/771", "1=1", "a+b", "GHA-•••••789-0", "", " =1"]) expect(neutraliseFormula(value)).toBe(value);
  });

  it("quotes commas, quotes and line breaks so every cell comes back as it was (guarded)", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: "grapheme" }), { minLength: 1, maxLength: 6 }), (cells) => {
        const [record] = parseCsv(`${cells.map(csvTextCell).join(",")}\r\n`);
        expect(record).toEqual(cells.map(neutraliseFormula));
      }),
      { numRuns: 300 },
    );
  });
});
