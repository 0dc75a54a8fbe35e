// GS1 / EPC identifier parsing and normalisation for asset identifiers.
// Pure and dependency-free: every accepted spelling of one key maps to one (scheme, canonical) pair.

export const IDENTIFIER_SCHEMES = ["gs1_giai", "gs1_sgtin", "serial", "asset_tag", "url", "rfid_epc"] as const;
export type IdentifierScheme = (typeof IDENTIFIER_SCHEMES)[number];
export type Gs1Scheme = Extract<IdentifierScheme, "gs1_giai" | "gs1_sgtin">;

export interface IdentifierRef {
  scheme: IdentifierScheme;
  canonical: string;
}

export interface NormalisedIdentifier extends IdentifierRef {
  /** GS1 element string, e.g. "(8004)061414112345"; set for GS1 schemes and GS1-based EPCs. */
  elementString?: string;
  /** GS1 Digital Link on id.gs1.org. */
  digitalLink?: string;
  /** EPC pure-identity URN; only when the company prefix length is known. */
  epcUri?: string;
  /** Other (scheme, canonical) keys naming the same thing, e.g. the rfid_epc URN of an SGTIN. */
  equivalents: IdentifierRef[];
}

export interface NormaliseOptions {
  /** GS1 Company Prefix length (6–12); needed to derive EPC URNs from GS1 keys. */
  companyPrefixLength?: number;
}

export class IdentifierFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "IdentifierFormatError";
  }
}

export function isIdentifierScheme(value: string): value is IdentifierScheme {
  return (IDENTIFIER_SCHEMES as readonly string[]).includes(value);
}

const GS = "\u001d";
const DL_HOST = "https://id.gs1.org";
const GIAI_MAX = 30;
const SERIAL_MAX = 20;
const PLAIN_MAX = 128;
const URL_MAX = 2048;
const CSET82_CHAR = /^[!"%&'()*+,\-./0-9:;<=>?A-Z_a-z]$/;
const CSET82_LIST = `digits, letters and !"%&'()*+,-./:;<=>?_`;

function fail(message: string): never {
  throw new IdentifierFormatError(message);
}

// Echo user input in messages, but bounded so a huge payload does not flood logs/responses.
function quote(value: string): string {
  return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
}

function describeChar(ch: string): string {
  const cp = ch.codePointAt(0) ?? 0;
  const hex = `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`;
  if (ch === " ") return "a space";
  return cp < 0x20 || (cp >= 0x7f && cp < 0xa0) ? hex : `"${ch}" (${hex})`;
}

function assertCset82(value: string, label: string, maxLength: number): void {
  if (value.length === 0) fail(`${label} is empty`);
  let position = 0;
  for (const ch of value) {
    position++;
    if (!CSET82_CHAR.test(ch)) {
      fail(`${label} contains ${describeChar(ch)} at position ${position}; only ${CSET82_LIST} are allowed`);
    }
  }
  if (value.length > maxLength) fail(`${label} is ${value.length} characters long; the maximum is ${maxLength}`);
}

/** GS1 mod-10 check digit for `digits` (the data digits, without the check digit). */
export function gs1CheckDigit(digits: string): number {
  if (!/^\d+$/.test(digits)) fail(`check digit input must contain only digits, got ${quote(digits)}`);
  let sum = 0;
  // Weights alternate 3,1,3,... starting from the rightmost data digit.
  for (let i = digits.length - 1, weight = 3; i >= 0; i--, weight = 4 - weight) {
    sum += Number(digits[i]) * weight;
  }
  return (10 - (sum % 10)) % 10;
}

/** Validates a GTIN-8/12/13/14 and returns it left-padded to 14 digits. */
export function normaliseGtin(raw: string): string {
  if (!/^\d+$/.test(raw)) fail(`GTIN must contain only digits, got ${quote(raw)}`);
  if (![8, 12, 13, 14].includes(raw.length)) fail(`GTIN must be 8, 12, 13 or 14 digits long, got ${raw.length} digits`);
  const expected = gs1CheckDigit(raw.slice(0, -1));
  const actual = Number(raw.slice(-1));
  if (expected !== actual) fail(`GTIN check digit is ${actual}, expected ${expected}`);
  return raw.padStart(14, "0");
}

function leadingDigits(value: string): number {
  return /^\d*/.exec(value)?.[0].length ?? 0;
}

function validateGiai(giai: string): string {
  assertCset82(giai, "GIAI", GIAI_MAX);
  const lead = leadingDigits(giai);
  if (lead < 6) {
    fail(`GIAI must start with a GS1 Company Prefix of at least 6 digits, but ${quote(giai)} starts with ${lead}`);
  }
  return giai;
}

function validateSerial(serial: string): string {
  assertCset82(serial, "serial number (AI 21)", SERIAL_MAX);
  return serial;
}

function validateCompanyPrefixLength(length: number): number {
  if (!Number.isInteger(length) || length < 6 || length > 12) {
    fail(`companyPrefixLength must be a whole number from 6 to 12, got ${String(length)}`);
  }
  return length;
}

// ---------------------------------------------------------------------------------------------
// Application Identifiers (only what is needed to split element strings reliably)

interface AiSpec {
  /** Exact data length for fixed-length AIs. */
  fixed?: number;
  max: number;
  numeric: boolean;
}

const fixedN = (n: number): AiSpec => ({ fixed: n, max: n, numeric: true });
const varX = (max: number): AiSpec => ({ max, numeric: false });
const varN = (max: number): AiSpec => ({ max, numeric: true });

const AI_SPECS = new Map<string, AiSpec>([
  ["00", fixedN(18)],
  ["01", fixedN(14)],
  ["02", fixedN(14)],
  ["03", fixedN(14)],
  ["10", varX(20)],
  ["11", fixedN(6)],
  ["12", fixedN(6)],
  ["13", fixedN(6)],
  ["15", fixedN(6)],
  ["16", fixedN(6)],
  ["17", fixedN(6)],
  ["20", fixedN(2)],
  ["21", varX(20)],
  ["22", varX(20)],
  ["235", varX(28)],
  ["240", varX(30)],
  ["241", varX(30)],
  ["250", varX(30)],
  ["251", varX(30)],
  ["253", varX(30)],
  ["254", varX(20)],
  ["255", varN(25)],
  ["30", varN(8)],
  ["37", varN(8)],
  ["400", varX(30)],
  ["401", varX(30)],
  ["402", fixedN(17)],
  ["403", varX(30)],
  ["410", fixedN(13)],
  ["411", fixedN(13)],
  ["412", fixedN(13)],
  ["413", fixedN(13)],
  ["414", fixedN(13)],
  ["415", fixedN(13)],
  ["416", fixedN(13)],
  ["417", fixedN(13)],
  ["422", varN(3)],
  ["7003", fixedN(10)],
  ["8003", varX(30)],
  ["8004", varX(30)],
  ["8006", fixedN(18)],
  ["8010", varX(30)],
  ["8013", varX(25)],
  ["8017", fixedN(18)],
  ["8018", fixedN(18)],
  ["8020", varX(25)],
  ["8200", varX(70)],
  ["90", varX(30)],
  ["91", varX(90)],
  ["92", varX(90)],
  ["93", varX(90)],
  ["94", varX(90)],
  ["95", varX(90)],
  ["96", varX(90)],
  ["97", varX(90)],
  ["98", varX(90)],
  ["99", varX(90)],
]);

function aiSpec(ai: string): AiSpec | undefined {
  const spec = AI_SPECS.get(ai);
  if (spec) return spec;
  // 31nn–36nn are the trade-measure AIs: four digits, six digits of data.
  return /^3[1-6]\d\d$/.test(ai) ? fixedN(6) : undefined;
}

interface AiPair {
  ai: string;
  value: string;
}

// Same wording as the bare-key validators, so a field reads the same whichever spelling was used.
const AI_LABELS = new Map([
  ["01", "GTIN (AI 01)"],
  ["21", "serial number (AI 21)"],
  ["8004", "GIAI"],
]);

function validateAiValue(ai: string, value: string, lenientGtin: boolean): void {
  const label = AI_LABELS.get(ai) ?? `AI (${ai})`;
  if (value.length === 0) fail(`${label} is empty`);
  // GTIN lengths/check digit are validated by normaliseGtin; bracketed and DL forms may carry GTIN-8/12/13.
  if (ai === "01" && lenientGtin) return;
  const spec = aiSpec(ai);
  if (!spec) fail(`Application Identifier (${ai}) is not supported`);
  if (spec.numeric) {
    if (!/^\d+$/.test(value)) fail(`${label} must contain only digits, got ${quote(value)}`);
  } else {
    assertCset82(value, label, spec.max);
  }
  if (spec.fixed !== undefined && value.length !== spec.fixed) {
    fail(`${label} must be exactly ${spec.fixed} digits, got ${value.length}`);
  }
  if (value.length > spec.max) fail(`${label} is ${value.length} characters long; the maximum is ${spec.max}`);
}

/** Unbracketed element string as transmitted by scanners: FNC1 (GS) ends variable-length fields. */
function parseRawElementString(input: string): AiPair[] {
  const pairs: AiPair[] = [];
  let i = 0;
  while (i < input.length) {
    if (input[i] === GS) {
      i++;
      continue;
    }
    let ai: string | undefined;
    let spec: AiSpec | undefined;
    for (const length of [2, 3, 4]) {
      const candidate = input.slice(i, i + length);
      if (candidate.length < length || !/^\d+$/.test(candidate)) break;
      spec = aiSpec(candidate);
      if (spec) {
        ai = candidate;
        break;
      }
    }
    if (!ai || !spec) fail(`element string has an unrecognised Application Identifier at position ${i + 1}`);
    i += ai.length;
    let value: string;
    if (spec.fixed !== undefined) {
      value = input.slice(i, i + spec.fixed);
      i += spec.fixed;
    } else {
      const gs = input.indexOf(GS, i);
      const end = gs === -1 ? input.length : gs;
      value = input.slice(i, end);
      i = end;
    }
    validateAiValue(ai, value, false);
    pairs.push({ ai, value });
  }
  if (pairs.length === 0) fail("element string is empty");
  return pairs;
}

const BRACKETED_AI = /^\((\d{2,4})\)/;

function bracketedAiAt(input: string, index: number): string | undefined {
  const match = BRACKETED_AI.exec(input.slice(index, index + 6));
  const ai = match?.[1];
  return ai !== undefined && aiSpec(ai) ? ai : undefined;
}

/** "(01)09506000134352(21)ABC". A "(" followed by a known AI starts a new field; "\(" is a literal "(". */
function parseBracketedElementString(input: string): AiPair[] {
  const pairs: AiPair[] = [];
  let i = 0;
  while (i < input.length) {
    const ai = bracketedAiAt(input, i);
    if (!ai) {
      const shown = BRACKETED_AI.exec(input.slice(i))?.[1];
      fail(
        shown
          ? `element string uses Application Identifier (${shown}), which is not supported`
          : `element string must be a sequence of (AI)value fields, e.g. (01)09506000134352(21)ABC`,
      );
    }
    i += ai.length + 2;
    let value = "";
    while (i < input.length) {
      if (input[i] === "\\" && input[i + 1] === "(") {
        value += "(";
        i += 2;
        continue;
      }
      if (input[i] === "(" && bracketedAiAt(input, i)) break;
      value += input[i];
      i++;
    }
    validateAiValue(ai, value, true);
    pairs.push({ ai, value });
  }
  if (pairs.length === 0) fail("element string is empty");
  return pairs;
}

// ---------------------------------------------------------------------------------------------
// GS1 Digital Link

const DL_ALIASES = new Map<string, string>([
  ["gtin", "01"],
  ["ser", "21"],
  ["lot", "10"],
  ["cpv", "22"],
  ["giai", "8004"],
  ["sscc", "00"],
  ["gln", "414"],
  ["grai", "8003"],
]);
const DL_PRIMARY = new Set(["00", "01", "253", "255", "401", "402", "414", "417", "8003", "8004", "8006", "8010", "8013", "8017", "8018"]);

function dlAi(segment: string): string | undefined {
  if (/^\d{2,4}$/.test(segment)) return aiSpec(segment) ? segment : undefined;
  return DL_ALIASES.get(segment.toLowerCase());
}

/** AI pairs from a Digital Link path (any host, optional path prefix); undefined when it is not one. */
function parseDigitalLinkPath(url: URL): AiPair[] | undefined {
  const segments = url.pathname.split("/").filter((s) => s !== "");
  for (let start = 0; start < segments.length; start++) {
    const primary = dlAi(segments[start] ?? "");
    if (!primary || !DL_PRIMARY.has(primary) || (segments.length - start) % 2 !== 0) continue;
    const pairs: AiPair[] = [];
    let j = start;
    for (; j < segments.length; j += 2) {
      const ai = dlAi(segments[j] ?? "");
      let value: string | undefined;
      try {
        value = decodeURIComponent(segments[j + 1] ?? "");
      } catch {
        value = undefined;
      }
      if (!ai || value === undefined) break;
      pairs.push({ ai, value });
    }
    if (j >= segments.length) {
      for (const pair of pairs) validateAiValue(pair.ai, pair.value, true);
      return pairs;
    }
    // Every later start of the same parity would fail at segment j too; skipping keeps this linear.
    start = j;
  }
  return undefined;
}

// Percent-encode everything outside RFC 3986 "unreserved" so DL paths are stable and unambiguous.
function dlEncode(value: string): string {
  return value.replace(/[^A-Za-z0-9\-._~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);
}

function isHttpUrl(value: string): boolean {
  return /^https?:\/\//i.test(value);
}

// ---------------------------------------------------------------------------------------------
// GS1 keys

type Gs1Key = { kind: "giai"; giai: string } | { kind: "sgtin"; gtin: string; serial: string };

function singleValue(pairs: AiPair[], ai: string): string | undefined {
  const values = new Set(pairs.filter((p) => p.ai === ai).map((p) => p.value));
  if (values.size > 1) fail(`AI (${ai}) appears more than once with different values`);
  return values.values().next().value;
}

function keyFromPairs(pairs: AiPair[], kind: Gs1Key["kind"], source: string): Gs1Key {
  if (kind === "giai") {
    const giai = singleValue(pairs, "8004");
    if (giai === undefined) fail(`${source} does not contain a GIAI (AI 8004)`);
    return { kind, giai: validateGiai(giai) };
  }
  const gtin = singleValue(pairs, "01");
  if (gtin === undefined) fail(`${source} does not contain a GTIN (AI 01); an SGTIN needs a GTIN and a serial number`);
  const normalisedGtin = normaliseGtin(gtin);
  const serial = singleValue(pairs, "21");
  if (serial === undefined) {
    fail(`${source} has a GTIN but no serial number (AI 21); an SGTIN needs both`);
  }
  return { kind, gtin: normalisedGtin, serial: validateSerial(serial) };
}

/** All GS1 keys present in an element string / DL; invalid keys throw. */
function keysFromPairs(pairs: AiPair[], source: string): Gs1Key[] {
  const keys: Gs1Key[] = [];
  if (pairs.some((p) => p.ai === "01") && pairs.some((p) => p.ai === "21")) keys.push(keyFromPairs(pairs, "sgtin", source));
  if (pairs.some((p) => p.ai === "8004")) keys.push(keyFromPairs(pairs, "giai", source));
  return keys;
}

function gs1FromKey(key: Gs1Key, companyPrefixLength: number | undefined): NormalisedIdentifier {
  const result: NormalisedIdentifier =
    key.kind === "giai"
      ? {
          scheme: "gs1_giai",
          canonical: `(8004)${key.giai}`,
          elementString: `(8004)${key.giai}`,
          digitalLink: `${DL_HOST}/8004/${dlEncode(key.giai)}`,
          equivalents: [],
        }
      : {
          scheme: "gs1_sgtin",
          canonical: `(01)${key.gtin}(21)${key.serial}`,
          elementString: `(01)${key.gtin}(21)${key.serial}`,
          digitalLink: `${DL_HOST}/01/${key.gtin}/21/${dlEncode(key.serial)}`,
          equivalents: [],
        };
  if (companyPrefixLength !== undefined) {
    const epcUri =
      key.kind === "giai"
        ? giaiUrn(key.giai, companyPrefixLength)
        : sgtinUrn(key.gtin, key.serial, companyPrefixLength);
    result.epcUri = epcUri;
    result.equivalents.push({ scheme: "rfid_epc", canonical: epcUri });
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// EPC (GS1 EPC Tag Data Standard)

// TDS escapes these characters of set 82 inside URN components.
function epcEscape(value: string): string {
  return value.replace(/["%&/<>?]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function epcUnescape(value: string, label: string): string {
  if (/%(?![0-9A-Fa-f]{2})/.test(value)) fail(`${label} has a "%" that is not followed by two hex digits`);
  return value.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

function sgtinUrn(gtin: string, serial: string, companyPrefixLength: number): string {
  const companyPrefix = gtin.slice(1, 1 + companyPrefixLength);
  // Indicator digit moves to the front of the item reference; the check digit is dropped.
  const itemRef = gtin.slice(0, 1) + gtin.slice(1 + companyPrefixLength, 13);
  return `urn:epc:id:sgtin:${companyPrefix}.${itemRef}.${epcEscape(serial)}`;
}

function giaiUrn(giai: string, companyPrefixLength: number): string {
  const lead = leadingDigits(giai);
  if (companyPrefixLength > lead) {
    fail(`companyPrefixLength ${companyPrefixLength} is longer than the ${lead} leading digits of GIAI ${quote(giai)}`);
  }
  const assetRef = giai.slice(companyPrefixLength);
  if (!assetRef) fail(`GIAI ${quote(giai)} has no asset reference after a ${companyPrefixLength}-digit company prefix`);
  return `urn:epc:id:giai:${giai.slice(0, companyPrefixLength)}.${epcEscape(assetRef)}`;
}

// EPC schemes accepted as opaque pure-identity URNs (only sgtin/giai are decoded into GS1 keys).
const EPC_SCHEMES = new Set([
  "sgtin", "sscc", "sgln", "grai", "giai", "gsrn", "gsrnp", "gdti", "cpi", "sgcn", "ginc", "gsin", "itip", "upui",
  "pgln", "gid", "usdod", "adi", "bic", "imovn",
]);

interface ParsedEpc {
  urn: string;
  key?: Gs1Key;
  companyPrefixLength?: number;
}

function checkCompanyPrefix(companyPrefix: string, label: string): void {
  if (companyPrefix.length < 6 || companyPrefix.length > 12) {
    fail(`${label} company prefix must be 6 to 12 digits, got ${companyPrefix.length}`);
  }
}

function parseEpcUrn(input: string): ParsedEpc {
  const tag = /^urn:epc:tag:(sgtin|giai)-\d+:[0-7]\.(.+)$/i.exec(input);
  // Tag URIs carry filter/size; the pure identity is the same key without them.
  const text = tag ? `urn:epc:id:${tag[1]}:${tag[2]}` : input;
  const match = /^urn:epc:id:([A-Za-z0-9]+):(.+)$/i.exec(text);
  if (!match) {
    fail(`${quote(input)} is not an EPC pure-identity URN (expected urn:epc:id:<scheme>:<fields>)`);
  }
  const scheme = (match[1] ?? "").toLowerCase();
  const fields = match[2] ?? "";
  if (!EPC_SCHEMES.has(scheme)) fail(`EPC scheme "${scheme}" is not a known EPC identifier type`);

  if (scheme === "sgtin") {
    const parts = /^(\d+)\.(\d+)\.(.+)$/.exec(fields);
    if (!parts) fail("SGTIN EPC URN must look like urn:epc:id:sgtin:<CompanyPrefix>.<IndicatorItemRef>.<Serial>");
    const companyPrefix = parts[1] ?? "";
    const itemRef = parts[2] ?? "";
    checkCompanyPrefix(companyPrefix, "SGTIN");
    if (companyPrefix.length + itemRef.length !== 13) {
      fail(`SGTIN company prefix and item reference must total 13 digits, got ${companyPrefix.length + itemRef.length}`);
    }
    const serial = validateSerial(epcUnescape(parts[3] ?? "", "SGTIN serial"));
    const gtin13 = itemRef.slice(0, 1) + companyPrefix + itemRef.slice(1);
    const gtin = gtin13 + String(gs1CheckDigit(gtin13));
    return {
      urn: sgtinUrn(gtin, serial, companyPrefix.length),
      key: { kind: "sgtin", gtin, serial },
      companyPrefixLength: companyPrefix.length,
    };
  }
  if (scheme === "giai") {
    const parts = /^(\d+)\.(.+)$/.exec(fields);
    if (!parts) fail("GIAI EPC URN must look like urn:epc:id:giai:<CompanyPrefix>.<AssetReference>");
    const companyPrefix = parts[1] ?? "";
    checkCompanyPrefix(companyPrefix, "GIAI");
    const giai = validateGiai(companyPrefix + epcUnescape(parts[2] ?? "", "GIAI asset reference"));
    return {
      urn: giaiUrn(giai, companyPrefix.length),
      key: { kind: "giai", giai },
      companyPrefixLength: companyPrefix.length,
    };
  }
  if (!/^(?:[A-Za-z0-9!'()*+,\-.:;=_]|%[0-9A-Fa-f]{2})+$/.test(fields)) {
    fail(`EPC URN fields contain characters that are not allowed in an EPC URI`);
  }
  return { urn: `urn:epc:id:${scheme}:${fields.replace(/%[0-9a-f]{2}/gi, (e) => e.toUpperCase())}` };
}

const SGTIN96_HEADER = 0x30;
const GIAI96_HEADER = 0x34;

// Partition value (index) → company prefix bits/digits; the rest of the 82 bits after it is the reference.
const PARTITIONS: ReadonlyArray<{ cpBits: number; cpDigits: number; sgtinItemBits: number }> = [
  { cpBits: 40, cpDigits: 12, sgtinItemBits: 4 },
  { cpBits: 37, cpDigits: 11, sgtinItemBits: 7 },
  { cpBits: 34, cpDigits: 10, sgtinItemBits: 10 },
  { cpBits: 30, cpDigits: 9, sgtinItemBits: 14 },
  { cpBits: 27, cpDigits: 8, sgtinItemBits: 17 },
  { cpBits: 24, cpDigits: 7, sgtinItemBits: 20 },
  { cpBits: 20, cpDigits: 6, sgtinItemBits: 24 },
];
const SGTIN96_SERIAL_BITS = 38n;

const EPC_HEADER_NAMES = new Map<number, string>([
  [0x2c, "GDTI-96"],
  [0x2d, "GSRN-96"],
  [0x2e, "GSRNP-96"],
  [0x2f, "USDoD-96"],
  [0x31, "SSCC-96"],
  [0x32, "SGLN-96"],
  [0x33, "GRAI-96"],
  [0x35, "GID-96"],
  [0x36, "SGTIN-198"],
  [0x37, "GRAI-170"],
  [0x38, "GIAI-202"],
  [0x39, "SGLN-195"],
  [0x3a, "GDTI-113"],
  [0x3b, "ADI-var"],
  [0x3c, "CPI-96"],
  [0x3d, "CPI-var"],
  [0x3e, "GDTI-174"],
  [0x3f, "SGCN-96"],
]);

const mask = (bits: number | bigint): bigint => (1n << BigInt(bits)) - 1n;

/** Decodes a 96-bit EPC (24 hex digits, SGTIN-96 or GIAI-96) to its pure-identity URN. */
export function decodeEpcHex(hex: string): string {
  if (!/^[0-9A-Fa-f]{24}$/.test(hex)) fail(`a 96-bit EPC must be exactly 24 hex digits, got ${quote(hex)}`);
  const bits = BigInt(`0x${hex}`);
  const header = Number(bits >> 88n);
  if (header !== SGTIN96_HEADER && header !== GIAI96_HEADER) {
    const name = EPC_HEADER_NAMES.get(header);
    const shown = `0x${header.toString(16).toUpperCase().padStart(2, "0")}`;
    fail(
      `EPC header ${shown}${name ? ` (${name})` : ""} is not supported; only SGTIN-96 (0x30) and GIAI-96 (0x34) can be decoded`,
    );
  }
  const partitionValue = Number((bits >> 82n) & 7n);
  const partition = PARTITIONS[partitionValue];
  if (!partition) fail(`EPC partition value ${partitionValue} is invalid (must be 0–6)`);
  const companyPrefix = (bits >> BigInt(82 - partition.cpBits)) & mask(partition.cpBits);
  if (companyPrefix >= 10n ** BigInt(partition.cpDigits)) {
    fail(`EPC company prefix ${companyPrefix} does not fit in ${partition.cpDigits} digits`);
  }
  const cp = companyPrefix.toString().padStart(partition.cpDigits, "0");
  if (header === SGTIN96_HEADER) {
    const itemDigits = 13 - partition.cpDigits;
    const itemRef = (bits >> SGTIN96_SERIAL_BITS) & mask(partition.sgtinItemBits);
    if (itemRef >= 10n ** BigInt(itemDigits)) fail(`EPC item reference ${itemRef} does not fit in ${itemDigits} digits`);
    const serial = bits & mask(SGTIN96_SERIAL_BITS);
    return `urn:epc:id:sgtin:${cp}.${itemRef.toString().padStart(itemDigits, "0")}.${serial}`;
  }
  const assetRef = bits & mask(82 - partition.cpBits);
  return `urn:epc:id:giai:${cp}.${assetRef}`;
}

/** Encodes an SGTIN or GIAI pure-identity URN as a 96-bit EPC (24 upper-case hex digits). */
export function encodeEpcHex(urn: string, opts: { filter?: number } = {}): string {
  const filter = opts.filter ?? 0;
  if (!Number.isInteger(filter) || filter < 0 || filter > 7) fail(`EPC filter must be a whole number from 0 to 7, got ${filter}`);
  const parsed = parseEpcUrn(urn.trim());
  const cpLength = parsed.companyPrefixLength;
  if (!parsed.key || cpLength === undefined) fail("only SGTIN and GIAI EPC URNs can be encoded as 96-bit EPCs");
  const partitionValue = 12 - cpLength;
  const partition = PARTITIONS[partitionValue];
  if (!partition) fail(`company prefix length ${cpLength} has no EPC partition`);
  const key = parsed.key;
  const header = key.kind === "sgtin" ? SGTIN96_HEADER : GIAI96_HEADER;
  const cp = key.kind === "sgtin" ? key.gtin.slice(1, 1 + cpLength) : key.giai.slice(0, cpLength);
  let bits =
    (BigInt(header) << 88n) |
    (BigInt(filter) << 85n) |
    (BigInt(partitionValue) << 82n) |
    (BigInt(cp) << BigInt(82 - partition.cpBits));
  if (key.kind === "sgtin") {
    const itemRef = key.gtin.slice(0, 1) + key.gtin.slice(1 + cpLength, 13);
    if (!/^(0|[1-9]\d*)$/.test(key.serial) || BigInt(key.serial) > mask(SGTIN96_SERIAL_BITS)) {
      fail(
        `serial ${quote(key.serial)} cannot be encoded in SGTIN-96: it must be a whole number without leading zeros, at most ${mask(SGTIN96_SERIAL_BITS)}`,
      );
    }
    bits |= (BigInt(itemRef) << SGTIN96_SERIAL_BITS) | BigInt(key.serial);
  } else {
    const assetRef = key.giai.slice(cpLength);
    const assetBits = 82 - partition.cpBits;
    if (!/^(0|[1-9]\d*)$/.test(assetRef) || BigInt(assetRef) > mask(assetBits)) {
      fail(
        `asset reference ${quote(assetRef)} cannot be encoded in GIAI-96: it must be a whole number without leading zeros, at most ${mask(assetBits)}`,
      );
    }
    bits |= BigInt(assetRef);
  }
  return bits.toString(16).toUpperCase().padStart(24, "0");
}

/** EPC in any accepted spelling: pure-identity URN, tag URI, or 96-bit hex (optionally 0x, spaces, dashes). */
function parseEpcText(value: string): ParsedEpc {
  if (/^urn:/i.test(value)) return parseEpcUrn(value);
  const compact = value.replace(/^0x/i, "").replace(/[\s-]/g, "");
  if (/^[0-9A-Fa-f]+$/.test(compact)) {
    if (compact.length !== 24) fail(`a hex EPC must be 96 bits (24 hex digits), got ${compact.length} hex digits`);
    return parseEpcUrn(decodeEpcHex(compact));
  }
  fail("rfid_epc must be an EPC pure-identity URN (urn:epc:id:...) or a 96-bit EPC in hex (24 hex digits)");
}

function normaliseEpc(value: string): NormalisedIdentifier {
  const v = value.trim();
  if (!v) fail("EPC is empty");
  const epc = parseEpcText(v);
  const result: NormalisedIdentifier = { scheme: "rfid_epc", canonical: epc.urn, epcUri: epc.urn, equivalents: [] };
  if (epc.key) {
    const gs1 = gs1FromKey(epc.key, undefined);
    result.elementString = gs1.elementString;
    result.digitalLink = gs1.digitalLink;
    result.equivalents.push({ scheme: gs1.scheme, canonical: gs1.canonical });
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// Scanner input

// AIM symbology identifiers whose data is a GS1 element string (GS1-128, DataBar, DataMatrix, QR, DotCode).
const GS1_SYMBOLOGY_IDS = new Set(["]C1", "]e0", "]d2", "]Q3", "]J1"]);

function stripSymbology(value: string): { body: string; gs1: boolean } {
  const match = /^\][A-Za-z][0-9A-Za-z]/.exec(value);
  if (!match) return { body: value, gs1: false };
  return { body: value.slice(3), gs1: GS1_SYMBOLOGY_IDS.has(match[0]) };
}

function normaliseGs1(scheme: Gs1Scheme, value: string, companyPrefixLength: number | undefined): NormalisedIdentifier {
  const kind = scheme === "gs1_giai" ? "giai" : "sgtin";
  const trimmed = value.trim();
  if (!trimmed) fail(`${kind === "giai" ? "GIAI" : "SGTIN"} is empty`);
  const { body, gs1 } = stripSymbology(trimmed);
  let key: Gs1Key;
  let cpLength = companyPrefixLength;
  if (isHttpUrl(body)) {
    let url: URL;
    try {
      url = new URL(body);
    } catch {
      fail(`${quote(body)} is not a valid URL`);
    }
    const pairs = parseDigitalLinkPath(url);
    if (!pairs) fail(`${quote(body)} is not a GS1 Digital Link (no /01/<gtin> or /8004/<giai> path)`);
    key = keyFromPairs(pairs, kind, "Digital Link");
  } else if (/^urn:/i.test(body)) {
    const epc = parseEpcUrn(body);
    if (epc.key?.kind !== kind) fail(`EPC URN is not ${kind === "giai" ? "a GIAI" : "an SGTIN"}`);
    key = epc.key;
    // The URN itself states the company prefix length.
    cpLength = epc.companyPrefixLength;
  } else if (body.startsWith("(")) {
    key = keyFromPairs(parseBracketedElementString(body), kind, "element string");
  } else if (gs1 || body.startsWith(GS)) {
    key = keyFromPairs(parseRawElementString(body), kind, "element string");
  } else if (kind === "giai") {
    key = { kind, giai: validateGiai(body) };
  } else if (/^01\d{14}/.test(body)) {
    // Unambiguous: a bare SGTIN is not accepted, so "01" + 14 digits can only be an unbracketed element string.
    key = keyFromPairs(parseRawElementString(body), kind, "element string");
  } else {
    fail(
      "gs1_sgtin needs a GTIN and a serial number: use an element string like (01)09506000134352(21)ABC123 " +
        "or a Digital Link like https://id.gs1.org/01/09506000134352/21/ABC123",
    );
  }
  return gs1FromKey(key, cpLength);
}

function normalisePlain(scheme: "serial" | "asset_tag", value: string): NormalisedIdentifier {
  const label = scheme === "serial" ? "serial" : "asset tag";
  // NFC so visually identical composed/decomposed spellings are one identifier.
  const v = value.trim().normalize("NFC");
  if (!v) fail(`${label} is empty`);
  const bad = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Zl}\p{Zp}]/u.exec(v);
  if (bad) {
    const position = [...v.slice(0, bad.index)].length + 1;
    fail(`${label} contains a non-printable character (${describeChar(bad[0])}) at position ${position}`);
  }
  const length = [...v].length;
  if (length > PLAIN_MAX) fail(`${label} is ${length} characters long; the maximum is ${PLAIN_MAX}`);
  return { scheme, canonical: v, equivalents: [] };
}

function normaliseUrl(value: string): NormalisedIdentifier {
  const v = value.trim();
  if (!v) fail("URL is empty");
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    fail(`${quote(v)} is not an absolute URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    fail(`URL must use http or https, got "${url.protocol.slice(0, -1)}"`);
  }
  if (!url.hostname) fail("URL has no host");
  const canonical = url.toString();
  if (canonical.length > URL_MAX) fail(`URL is ${canonical.length} characters long; the maximum is ${URL_MAX}`);
  return { scheme: "url", canonical, equivalents: [] };
}

/**
 * Validates `value` for `scheme` and returns its canonical key plus GS1/EPC renderings.
 * Throws IdentifierFormatError with a user-facing message when the value is not valid.
 */
export function normaliseIdentifier(
  scheme: IdentifierScheme,
  value: string,
  opts: NormaliseOptions = {},
): NormalisedIdentifier {
  if (typeof value !== "string") fail("identifier value must be a string");
  const cpLength =
    opts.companyPrefixLength === undefined ? undefined : validateCompanyPrefixLength(opts.companyPrefixLength);
  switch (scheme) {
    case "gs1_giai":
    case "gs1_sgtin":
      return normaliseGs1(scheme, value, cpLength);
    case "serial":
    case "asset_tag":
      return normalisePlain(scheme, value);
    case "url":
      return normaliseUrl(value);
    case "rfid_epc":
      return normaliseEpc(value);
    default: {
      const unknown: never = scheme;
      return fail(`unknown identifier scheme ${quote(String(unknown))}`);
    }
  }
}

/**
 * Candidate (scheme, canonical) lookups for a raw scan, most specific first.
 * Never throws; returns [] when the input cannot be any identifier.
 */
export function parseScan(raw: string): IdentifierRef[] {
  const out: IdentifierRef[] = [];
  const seen = new Set<string>();
  const add = (ref: IdentifierRef): void => {
    const id = `${ref.scheme}\u0000${ref.canonical}`;
    if (seen.has(id)) return;
    seen.add(id);
    out.push({ scheme: ref.scheme, canonical: ref.canonical });
  };
  const attempt = (fn: () => void): void => {
    try {
      fn();
    } catch {
      // Not this kind of identifier; other interpretations may still apply.
    }
  };
  const addPairs = (pairs: AiPair[] | undefined, source: string): void => {
    for (const key of pairs ? keysFromPairs(pairs, source) : []) add(gs1FromKey(key, undefined));
  };

  if (typeof raw !== "string") return out;
  const trimmed = raw.trim();
  if (!trimmed) return out;
  const { body, gs1 } = stripSymbology(trimmed);

  if (body.startsWith("(")) {
    attempt(() => addPairs(parseBracketedElementString(body), "element string"));
  } else if (gs1 || body.startsWith(GS)) {
    attempt(() => addPairs(parseRawElementString(body), "element string"));
  } else if (isHttpUrl(body)) {
    attempt(() => addPairs(parseDigitalLinkPath(new URL(body)), "Digital Link"));
    attempt(() => add(normaliseUrl(body)));
  } else if (/^urn:epc:/i.test(body) || /^(0x)?[0-9A-Fa-f]{24}$/.test(body)) {
    attempt(() => {
      const epc = normaliseEpc(body);
      add(epc);
      epc.equivalents.forEach(add);
    });
  } else if (/^01\d{14}/.test(body)) {
    attempt(() => addPairs(parseRawElementString(body), "element string"));
  }

  attempt(() => add(normalisePlain("asset_tag", body)));
  attempt(() => add(normalisePlain("serial", body)));
  // A plain barcode may carry a bare GIAI (no AI); only a guess when nothing GS1 was recognised, so last.
  if (!out.some((ref) => ref.scheme === "gs1_giai" || ref.scheme === "gs1_sgtin")) {
    attempt(() => add(gs1FromKey({ kind: "giai", giai: validateGiai(body) }, undefined)));
  }
  return out;
}
