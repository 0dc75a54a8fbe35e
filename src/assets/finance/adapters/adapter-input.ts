import type { BookRow } from "../books/books.service.ts";
import type { EntryRow } from "../value-entries/entries.service.ts";
import type { RollforwardData } from "../rollforward/rollforward.service.ts";

/** What every adapter maps: the book, its rollforward as of a date and the entries of that fiscal year to date. */
export interface AdapterInput {
  partnerId: string;
  book: BookRow;
  asOf: string;
  issuedOn: string;
  digits: number;
  rollforward: RollforwardData;
  entries: EntryRow[];
  mappingVersion: string;
  disclaimer: string;
}

export function xmlEscape(s: string): string {
  return s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;").replaceAll("'", "&apos;");
}
