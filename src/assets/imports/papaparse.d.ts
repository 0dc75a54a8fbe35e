// The part of papaparse's API the CSV import uses (the package ships no types).
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
  const Papa: { parse(input: string, config?: ParseConfig): ParseResult<string[]> };
  export default Papa;
}
