// The one CSV writer: every CSV the service exports goes through `toCsv`, so every
// export is RFC 4180 (CRLF, quoted where needed) and safe to open in a spreadsheet.
// A cell starting with a formula trigger is written as text, with a leading
// apostrophe (papaparse's `escapeFormulae`): the OWASP list (= + - @ tab CR), plus LF,
// the full-width forms and any of those behind leading whitespace. A plain decimal
// number ("-1234.50") is left alone, so amounts stay numbers for accountants; anything
// else that merely looks numeric ("-1+1+cmd|' /C calc'!A0") is escaped.
import Papa from "papaparse";

export const CSV_MEDIA_TYPE = "text/csv; charset=utf-8";

/** A cell: text, a number, or nothing (an empty cell). */
export type CsvCell = string | number | null | undefined;

/** Exactly a plain decimal number: optional minus, digits, optional fraction. */
const PLAIN_NUMBER = "-?\\d+(?:\\.\\d+)?";
const TRIGGERS = "=+\\-@\\uFF1D\\uFF0B\\uFF0D\\uFF20"; // = + - @ and their full-width forms
/** Cells spreadsheets would run as a formula (or that hide one behind a tab, CR, LF or spaces), unless a plain number. */
export const FORMULA_RISK = new RegExp(`^(?!${PLAIN_NUMBER}$)(?:[${TRIGGERS}\\t\\r\\n]|\\s+[${TRIGGERS}])`);

/** The rows (a header row first, if any) as an RFC 4180 document: CRLF line ends, a final CRLF. */
export function toCsv(rows: CsvCell[][]): string {
  if (rows.length === 0) return "";
  // papaparse ships no types: papaparse.d.ts (beside this file) declares what the service uses.
  return Papa.unparse(rows, { newline: "\r\n", escapeFormulae: FORMULA_RISK, quotes: false, header: false }) + "\r\n";
}
