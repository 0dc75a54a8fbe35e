// The CSV writer every export uses: RFC 4180 and formula-safe. The API's free text is
// trimmed and refuses control characters, so the tab, CR and LF cases cannot be planted
// through a request; they are shown here (the contract suite plants the rest through
// every CSV export: test/contract/csv-exports.test.ts).
import { test, expect, describe } from "bun:test";
import Papa from "papaparse";
import { FORMULA_RISK, toCsv } from "./csv.ts";

const roundTrip = (document: string) => Papa.parse(document, { skipEmptyLines: true }).data;

describe("toCsv", () => {
  test("writes RFC 4180: CRLF line ends and a final CRLF, quotes where a cell needs them, empty cells for null", () => {
    const document = toCsv([
      ["name", "note", "amount"],
      ["Property, plant and equipment", 'the "main" depot', "12800.00"],
      ["two\nlines", null, 3],
    ]);
    expect(document).toBe('name,note,amount\r\n"Property, plant and equipment","the ""main"" depot",12800.00\r\n"two\nlines",,3\r\n');
    expect(roundTrip(document)).toEqual([
      ["name", "note", "amount"],
      ["Property, plant and equipment", 'the "main" depot', "12800.00"],
      ["two\nlines", "", "3"],
    ]);
    expect(toCsv([])).toBe("");
  });

  test("a cell a spreadsheet would run as a formula is written as text with a leading apostrophe", () => {
    const hostile = [
      "-1+1+cmd|' /C calc'!A0",
      "=1+1",
      "+1+1",
      "-1+1",
      "@SUM(1+1)",
      "\t=1+1",
      "\r=1+1",
      "\n=1+1",
      "\tplain after a tab",
      "  =1+1",
      "＝1+1",
      "＋1",
      "－1",
      "＠SUM(1)",
      "-2.5e3",
      "-.5",
      "--1",
    ];
    const parsed = roundTrip(toCsv(hostile.map((h) => [h])));
    expect(parsed).toEqual(hostile.map((h) => [`'${h}`]));
  });

  test("plain decimal numbers (amounts, negative ones included) and harmless text stay as they are", () => {
    const safe = ["-1234.50", "1234.50", "-7", "0", "12800.00", "Machines", "1-2", "a=b", "DEPR-EXPENSE", "2026-01-31", "", "' quoted"];
    expect(roundTrip(toCsv(safe.map((v) => [v, 1])))).toEqual(safe.map((v) => [v, "1"]));
    for (const v of safe) expect(FORMULA_RISK.test(v), v).toBe(false);
  });
});
