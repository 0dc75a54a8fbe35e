// The part of papaparse's API the service uses (the package ships no types): parsing for the
// CSV import (src/assets/imports/imports.csv.ts), unparsing for the CSV writer (csv.ts).
declare module "papaparse" {
  export interface ParseError {
    type: string;
    code: string;
    message: string;
    row?: number;
  }
  export interface ParseMeta {
    delimiter: string;
    linebreak: string;
    aborted: boolean;
    truncated: boolean;
  }
  export interface ParseResult<T> {
    data: T[];
    errors: ParseError[];
    meta: ParseMeta;
  }
  export interface ParseConfig {
    delimiter?: string;
    newline?: string;
    quoteChar?: string;
    header?: false;
    skipEmptyLines?: boolean | "greedy";
    delimitersToGuess?: string[];
    preview?: number;
  }
  export interface UnparseConfig {
    newline?: string;
    /** Cells matching it are written with a leading apostrophe. */
    escapeFormulae?: RegExp | boolean;
    quotes?: boolean;
    header?: boolean;
  }
  const Papa: {
    parse(input: string, config?: ParseConfig): ParseResult<string[]>;
    unparse(data: Array<Array<string | number | null | undefined>>, config?: UnparseConfig): string;
  };
  export default Papa;
}
