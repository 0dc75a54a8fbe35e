// Reading an uploaded CSV: encoding, line endings, delimiter, header, cells. Pure
// (no database), so the rules are tested on the sample files directly.
import Papa from "papaparse";

export const CSV_MAX_BYTES = 5 * 1024 * 1024;
export const CSV_MAX_ROWS = 10_000;

export type LineEnding = "CRLF" | "LF" | "CR" | "mixed" | "none";

export interface CellIssue {
  row: number;
  column: string;
  message: string;
}

export interface CsvTable {
  encoding: "utf-8" | "utf-8-with-invalid-bytes";
  bom: boolean;
  lineEnding: LineEnding;
  delimiter: string;
  header: string[];
  /** Data rows (header excluded), each as long as the header when well-formed. */
  rows: string[][];
  /** Per-cell findings of reading (invalid UTF-8 bytes), row 1 = first data row. */
  cellIssues: CellIssue[];
  /** Rows whose field count differs from the header's, and unbalanced quotes. */
  rowIssues: Array<{ row: number; message: string }>;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });
const cp1252 = new TextDecoder("windows-1252");

function lineEndingOf(text: string): LineEnding {
  let crlf = 0;
  let cr = 0;
  let lf = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 13) {
      if (text.charCodeAt(i + 1) === 10) {
        crlf++;
        i++;
      } else cr++;
    } else if (c === 10) lf++;
  }
  const kinds = [crlf && "CRLF", lf && "LF", cr && "CR"].filter(Boolean) as LineEnding[];
  if (kinds.length === 0) return "none";
  return kinds.length === 1 ? kinds[0]! : "mixed";
}

const NEWLINE_OF: Record<LineEnding, string | undefined> = { CRLF: "\r\n", LF: "\n", CR: "\r", mixed: undefined, none: undefined };

/**
 * Reads the bytes as UTF-8 (a leading BOM is dropped). When they are not valid
 * UTF-8, the file is split on its ASCII structure byte for byte, and each cell with
 * invalid bytes is transliterated from Windows-1252 and reported with its row and
 * column, so the dry run says exactly where the file needs fixing.
 */
export function readCsv(bytes: Uint8Array): CsvTable {
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const body = bom ? bytes.subarray(3) : bytes;
  let text: string;
  let valid = true;
  try {
    text = utf8.decode(body);
  } catch {
    valid = false;
    // latin1 is one char per byte: delimiters, quotes and line breaks keep their places.
    text = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString("latin1");
  }
  const lineEnding = lineEndingOf(text);
  const parsed = Papa.parse(text, {
    newline: NEWLINE_OF[lineEnding],
    skipEmptyLines: "greedy",
    delimitersToGuess: [",", ";", "\t", "|"],
  });
  const [header = [], ...rows] = parsed.data;
  const cellIssues: CellIssue[] = [];
  const decodeCell = (cell: string, row: number, column: string): string => {
    // eslint-disable-next-line no-control-regex
    if (!/[^\x00-\x7f]/.test(cell)) return cell;
    const raw = Buffer.from(cell, "latin1");
    try {
      return utf8.decode(raw);
    } catch {
      const fixed = cp1252.decode(raw);
      const bad = [...raw].filter((b) => b >= 0x80).map((b) => `0x${b.toString(16).toUpperCase()}`);
      cellIssues.push({ row, column, message: `not valid UTF-8 (bytes ${[...new Set(bad)].slice(0, 4).join(", ")}); read as Windows-1252: ${JSON.stringify(fixed)}` });
      return fixed;
    }
  };
  const headerNames = valid ? header : header.map((h, i) => decodeCell(h, 0, `column ${i + 1}`));
  const outRows = valid ? rows : rows.map((r, i) => r.map((cell, j) => decodeCell(cell, i + 1, headerNames[j] ?? `column ${j + 1}`)));

  const rowIssues: Array<{ row: number; message: string }> = [];
  outRows.forEach((r, i) => {
    if (r.length !== headerNames.length) rowIssues.push({ row: i + 1, message: `has ${r.length} fields; the header has ${headerNames.length}` });
  });
  for (const e of parsed.errors) {
    if (e.code === "MissingQuotes" || e.code === "InvalidQuotes") {
      rowIssues.push({ row: Math.max(1, e.row ?? 1), message: e.message });
    }
  }
  return {
    encoding: valid ? "utf-8" : "utf-8-with-invalid-bytes",
    bom,
    lineEnding,
    delimiter: parsed.meta.delimiter,
    header: headerNames.map((h) => h.trim()),
    rows: outRows,
    cellIssues,
    rowIssues,
  };
}

/** Header cells compared for duplicates and matched to presets: case, spaces and punctuation around them ignored. */
export function headerKey(h: string): string {
  return h.trim().toLowerCase().replace(/\s+/g, " ");
}

/** Groups of column positions (1-based) that share one header name. */
export function duplicateHeaders(header: string[]): Array<{ name: string; positions: number[] }> {
  const seen = new Map<string, number[]>();
  header.forEach((h, i) => {
    const k = headerKey(h);
    seen.set(k, [...(seen.get(k) ?? []), i + 1]);
  });
  return [...seen.entries()].filter(([, p]) => p.length > 1).map(([, positions]) => ({ name: header[positions[0]! - 1]!, positions }));
}
