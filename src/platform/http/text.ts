// Text the service accepts from anyone: every string of a JSON body (keys and values),
// query string, multipart field and file name, and CSV cell passes this one rule.
// Refused: lone surrogates (not Unicode text; JSON.parse makes them from "\ud800"),
// Unicode noncharacters (U+FDD0–U+FDEF and every U+xFFFE/U+xFFFF: XML 1.0 cannot
// carry U+FFFE/U+FFFF), and control characters other than tab, line feed and carriage
// return (XML 1.0 cannot carry C0; iCalendar forbids C0 and DEL; C1 has no place in
// text and XML 1.1 rewrites U+0085). So no export (UBL, XBRL GL, EPCIS, iCalendar,
// CSV) can be made malformed by what a user typed, and nothing is stored that reads
// back differently.
import { AppError, type FieldError } from "../errors/app-error.ts";

// With the u flag \p{Cs} matches only unpaired surrogates (a pair is one code point).
// eslint-disable-next-line no-control-regex
const REFUSED = /[\p{Cs}\p{Noncharacter_Code_Point}\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/u;
/**
 * A barcode as scanned (a route's `scannerFields`): GS1's FNC1 separator (U+001D GS)
 * ends variable-length fields of an element string. The route parses it away; it is
 * never stored as text.
 */
// eslint-disable-next-line no-control-regex
const REFUSED_IN_SCAN = /[\p{Cs}\p{Noncharacter_Code_Point}\u0000-\u0008\u000b\u000c\u000e-\u001c\u001e\u001f\u007f-\u009f]/u;

const hex = (cp: number) => `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`;

/** What is wrong with `s` ("contains …"), or undefined when it is acceptable text (`scanned`: a barcode as read). */
export function textFault(s: string, scanned = false): string | undefined {
  const m = (scanned ? REFUSED_IN_SCAN : REFUSED).exec(s);
  if (!m) return undefined;
  const cp = m[0].codePointAt(0)!;
  if (cp >= 0xd800 && cp <= 0xdfff) return `contains a lone surrogate (${hex(cp)}): not valid Unicode text`;
  if (cp <= 0x9f) return `contains the control character ${hex(cp)}`;
  return `contains ${hex(cp)}, a Unicode noncharacter`;
}

/** A JSON Pointer segment (RFC 6901). */
export const pointerSegment = (key: string) => key.replaceAll("~", "~0").replaceAll("/", "~1");

/**
 * The first refused string in a parsed JSON value, as a field error at its JSON
 * Pointer; a property name is reported at the object holding it. Strings at the
 * `scanned` pointers are barcodes as read (GS allowed). Depth is bounded by the caller.
 */
export function jsonTextFault(value: unknown, path: string, scanned?: readonly string[]): FieldError | undefined {
  if (typeof value === "string") {
    const fault = textFault(value, scanned?.includes(path) ?? false);
    return fault ? { path, message: fault } : undefined;
  }
  if (value === null || typeof value !== "object") return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = jsonTextFault(value[i], `${path}/${i}`, scanned);
      if (hit) return hit;
    }
    return undefined;
  }
  for (const key of Object.keys(value)) {
    const fault = textFault(key);
    if (fault) return { path, message: `a property name ${fault}` };
    const hit = jsonTextFault((value as Record<string, unknown>)[key], `${path}/${pointerSegment(key)}`, scanned);
    if (hit) return hit;
  }
  return undefined;
}

/** 400 validation_failed for a refused string. */
export function textError(error: FieldError): AppError {
  return new AppError("validation_failed", `${error.path}: ${error.message}`, { errors: [error] });
}

/** Throws the 400 when `value` (a name, a field) is not acceptable text. */
export function assertText(value: string, path: string, prefix = ""): void {
  const fault = textFault(value);
  if (fault) throw textError({ path, message: prefix + fault });
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Bytes as UTF-8 text, or undefined when they are not UTF-8 (never replaced with U+FFFD). */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

const PLAIN_QUERY = /^[\x20-\x24\x26-\x7e]*$/;

/**
 * Checks a raw query string (after `?`): every name and value must percent-decode
 * to UTF-8 (the router keeps undecodable escapes as literal text, so `q=%ED%A0%80`
 * would otherwise search for "%ED%A0%80") and be acceptable text.
 */
export function assertQueryText(search: string): void {
  // No escape and printable ASCII only: every name and value is acceptable text as it stands.
  if (PLAIN_QUERY.test(search)) return;
  for (const pair of search.split("&")) {
    if (pair === "") continue;
    const eq = pair.indexOf("=");
    const rawName = eq < 0 ? pair : pair.slice(0, eq);
    const rawValue = eq < 0 ? "" : pair.slice(eq + 1);
    const name = percentDecode(rawName);
    if (name === undefined) throw textError({ path: "/query", message: "a parameter name is not valid UTF-8" });
    const nameFault = textFault(name);
    if (nameFault) throw textError({ path: "/query", message: `a parameter name ${nameFault}` });
    const path = `/query/${pointerSegment(name)}`;
    const value = percentDecode(rawValue);
    if (value === undefined) throw textError({ path, message: "not valid UTF-8" });
    assertText(value, path);
  }
}

/** As the router decodes: `+` is a space, each run of %XX escapes is UTF-8 (undefined when not), a stray `%` stays. */
function percentDecode(s: string): string | undefined {
  let valid = true;
  const out = s.replaceAll("+", " ").replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      valid = false;
      return run;
    }
  });
  return valid ? out : undefined;
}
