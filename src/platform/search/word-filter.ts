// The `q` of lists that search by words (FTS or the word tables): text with no letter
// or digit has no word to look for, so it is a 400 that says so, never a filter
// silently dropped (the caller would take every row for matches).
import { z } from "@hono/zod-openapi";
import { MAX_TEXT_FILTER } from "../paging/paging.ts";

export const NO_SEARCH_WORDS = "q has no letters or digits to search for";

/** True when the text holds a letter or digit: a word search has something to match. */
export function hasSearchWord(text: string): boolean {
  return /[\p{L}\p{N}]/u.test(text);
}

/** What `q` descriptions add: blank is no filter, punctuation alone is a 400. */
export const WORD_FILTER_NOTE = `Blank means no filter; text without letters or digits is 400 validation_failed ("${NO_SEARCH_WORDS}").`;

/** Free-text word filter: trimmed, at most 200 characters, empty means absent, otherwise at least one letter or digit. */
export const WordFilter = z
  .string()
  .trim()
  .max(MAX_TEXT_FILTER)
  .refine((s) => s === "" || hasSearchWord(s), NO_SEARCH_WORDS)
  .optional();
