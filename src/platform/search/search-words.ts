// Word-prefix search without FTS: every word of the query must begin a word of the
// record's text. A domain keeps its records' words in a (word, owner id) table with
// an index on word, so the match and an exact count are index range scans, never a
// walk of every record (audits' names, work orders' titles). Words are what the
// register's full-text search indexes: runs of letters and digits, lower case,
// without diacritics.
import { and, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";

/** Most words of a query; more hardly ever narrow a list. */
const QUERY_WORDS_MAX = 16;
/** Most words kept per record (names and titles are at most 200 characters). */
const RECORD_WORDS_MAX = 64;

function words(text: string): string[] {
  const runs = text.normalize("NFKD").replace(/\p{M}+/gu, "").toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(runs)];
}

/** The distinct words of a name, as stored. */
export function wordsOf(text: string): string[] {
  return words(text).slice(0, RECORD_WORDS_MAX);
}

/**
 * The condition "every word of `text` prefixes a word of the record", or null when
 * the text has no letters or digits (the lists' `q`, a WordFilter, refuses such text first).
 */
export function wordsMatch(text: string, recordId: SQLiteColumn, wordCol: SQLiteColumn, ownerCol: SQLiteColumn, table: SQL): SQL | null {
  const wanted = words(text).slice(0, QUERY_WORDS_MAX);
  if (wanted.length === 0) return null;
  // [w, w + U+10FFFF) is every word that starts with w.
  return and(
    ...wanted.map((w) => sql`${recordId} IN (SELECT ${ownerCol} FROM ${table} WHERE ${wordCol} >= ${w} AND ${wordCol} < ${w} || char(1114111))`),
  ) as SQL;
}
