// Builds an FTS5 MATCH expression from user text without exposing FTS5 syntax:
// users type words, never operators, column filters or NEAR groups.

/** Most words a query may carry; more add cost and hardly ever narrow a register search. */
const MAX_WORDS = 16;

/**
 * Each whitespace-separated word becomes a quoted prefix phrase of its letter and
 * digit runs (`SN-123` → `"SN 123"*`, the same tokens unicode61 indexed), and the
 * words are AND-ed. Returns null when nothing searchable is left; the lists' `q`
 * (WordFilter) refuses such text with a 400 before it gets here.
 */
export function ftsMatchQuery(text: string): string | null {
  const words: string[] = [];
  for (const chunk of text.split(/\s+/u)) {
    const runs = chunk.match(/[\p{L}\p{N}\p{M}]+/gu);
    if (!runs) continue;
    words.push(`"${runs.join(" ")}"*`);
    if (words.length === MAX_WORDS) break;
  }
  return words.length ? words.join(" AND ") : null;
}
