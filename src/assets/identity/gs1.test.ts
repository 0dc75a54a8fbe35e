import { describe, test, expect } from "bun:test";
import {
  IDENTIFIER_SCHEMES,
  IdentifierFormatError,
  decodeEpcHex,
  encodeEpcHex,
  gs1CheckDigit,
  isIdentifierScheme,
  normaliseGtin,
  normaliseIdentifier,
  parseScan,
  type IdentifierScheme,
} from "../kernel/gs1.ts";

const GS = "\u001d";

// Published examples: GS1 GTIN 09506000134352 (GS1 Digital Link standard), EAN-13 4006381333931,
// GIAI 061414112345 and SGTIN-96 3074257BF7194E4000001A85 (GS1 EPC Tag Data Standard).
const SGTIN = "(01)09506000134352(21)ABC";
const GIAI = "(8004)061414112345";
const TDS_SGTIN_HEX = "3074257BF7194E4000001A85";
const TDS_SGTIN_URN = "urn:epc:id:sgtin:0614141.812345.6789";
const TDS_SGTIN_ELEMENT = "(01)80614141123458(21)6789";

function formatError(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(IdentifierFormatError);
    return (error as Error).message;
  }
  throw new Error("expected an IdentifierFormatError");
}

function canonical(scheme: IdentifierScheme, value: string): string {
  return normaliseIdentifier(scheme, value).canonical;
}

describe("gs1CheckDigit", () => {
  test.each([
    ["0950600013435", 2], // GTIN-14 09506000134352
    ["400638133393", 1], // EAN-13 4006381333931
    ["03600029145", 2], // UPC-A 036000291452
    ["9638507", 4], // EAN-8 96385074
    ["8061414112345", 8], // GTIN of the TDS SGTIN example
  ])("%s -> %d", (digits, expected) => {
    expect(gs1CheckDigit(digits)).toBe(expected);
  });

  test("rejects non-digits", () => {
    expect(formatError(() => gs1CheckDigit("12a4"))).toContain("only digits");
    expect(formatError(() => gs1CheckDigit(""))).toContain("only digits");
  });
});

describe("normaliseGtin", () => {
  test("pads GTIN-8/12/13 to 14 digits", () => {
    expect(normaliseGtin("96385074")).toBe("00000096385074");
    expect(normaliseGtin("036000291452")).toBe("00036000291452");
    expect(normaliseGtin("4006381333931")).toBe("04006381333931");
    expect(normaliseGtin("09506000134352")).toBe("09506000134352");
  });

  test("names the expected check digit", () => {
    expect(formatError(() => normaliseGtin("09506000134353"))).toBe("GTIN check digit is 3, expected 2");
    expect(formatError(() => normaliseGtin("4006381333932"))).toBe("GTIN check digit is 2, expected 1");
  });

  test("rejects bad lengths and characters", () => {
    expect(formatError(() => normaliseGtin("1234567890"))).toBe("GTIN must be 8, 12, 13 or 14 digits long, got 10 digits");
    expect(formatError(() => normaliseGtin("0950600013435X"))).toContain("GTIN must contain only digits");
  });
});

describe("scheme helpers", () => {
  test("isIdentifierScheme", () => {
    for (const scheme of IDENTIFIER_SCHEMES) expect(isIdentifierScheme(scheme)).toBe(true);
    expect(isIdentifierScheme("gtin")).toBe(false);
  });

  test("unknown scheme at runtime is a format error", () => {
    expect(formatError(() => normaliseIdentifier("isbn" as IdentifierScheme, "x"))).toContain("unknown identifier scheme");
  });
});

describe("gs1_sgtin", () => {
  test.each([
    ["element string", SGTIN],
    ["element string with whitespace", `  ${SGTIN}\n`],
    ["Digital Link on id.gs1.org", "https://id.gs1.org/01/09506000134352/21/ABC"],
    ["Digital Link, other host + path prefix + query", "https://example.com/assets/dl/01/09506000134352/21/ABC?17=251231&linkType=all"],
    ["Digital Link with GTIN-13 and trailing slash", "https://example.com/01/9506000134352/21/ABC/"],
    ["Digital Link with lot and CPV qualifiers", "https://example.com/01/09506000134352/22/2A/10/LOT1/21/ABC"],
    ["Digital Link with percent-encoded serial", "https://example.com/01/09506000134352/21/%41BC"],
    ["Digital Link with legacy aliases", "https://example.com/gtin/09506000134352/ser/ABC"],
    ["Digital Link over http, upper-case scheme", "HTTP://EXAMPLE.COM/01/09506000134352/21/ABC#frag"],
    ["element string with extra attributes", "(01)09506000134352(17)251231(10)LOT1(21)ABC"],
    ["element string with GTIN-13", "(01)9506000134352(21)ABC"],
    ["GS1 DataMatrix symbology id", `]d201095060001343522${"1"}ABC`],
    ["GS1-128 with FNC1 between fields", `]C11725123110LOT1${GS}0109506000134352${"21"}ABC`],
    ["leading FNC1", `${GS}010950600013435221ABC${GS}`],
    ["GS1 QR symbology id", "]Q3010950600013435221ABC"],
    ["unbracketed element string", "010950600013435221ABC"],
    ["unbracketed with trailing lot after GS", `010950600013435221ABC${GS}10LOT1`],
    ["EPC URN", "urn:epc:id:sgtin:9506000.013435.ABC"],
  ])("%s", (_label, value) => {
    expect(canonical("gs1_sgtin", value)).toBe(SGTIN);
  });

  test("full result for the GS1 example GTIN", () => {
    expect(normaliseIdentifier("gs1_sgtin", SGTIN)).toEqual({
      scheme: "gs1_sgtin",
      canonical: SGTIN,
      elementString: SGTIN,
      digitalLink: "https://id.gs1.org/01/09506000134352/21/ABC",
      equivalents: [],
    });
  });

  test("EAN-13 GTIN is left-padded to GTIN-14 in every rendering", () => {
    const result = normaliseIdentifier("gs1_sgtin", "https://id.gs1.org/01/4006381333931/21/77");
    expect(result.canonical).toBe("(01)04006381333931(21)77");
    expect(result.digitalLink).toBe("https://id.gs1.org/01/04006381333931/21/77");
    expect(canonical("gs1_sgtin", "(01)04006381333931(21)77")).toBe(result.canonical);
  });

  test("serials are case-sensitive", () => {
    expect(canonical("gs1_sgtin", "(01)09506000134352(21)abc")).not.toBe(SGTIN);
  });

  test("epcUri needs the company prefix length", () => {
    expect(normaliseIdentifier("gs1_sgtin", SGTIN).epcUri).toBeUndefined();
    const result = normaliseIdentifier("gs1_sgtin", SGTIN, { companyPrefixLength: 7 });
    expect(result.epcUri).toBe("urn:epc:id:sgtin:9506000.013435.ABC");
    expect(result.equivalents).toEqual([{ scheme: "rfid_epc", canonical: "urn:epc:id:sgtin:9506000.013435.ABC" }]);
    // Indicator digit moves to the front of the item reference; check digit is dropped.
    expect(normaliseIdentifier("gs1_sgtin", TDS_SGTIN_ELEMENT, { companyPrefixLength: 7 }).epcUri).toBe(TDS_SGTIN_URN);
    expect(normaliseIdentifier("gs1_sgtin", SGTIN, { companyPrefixLength: 12 }).epcUri).toBe(
      "urn:epc:id:sgtin:950600013435.0.ABC",
    );
  });

  test("an EPC URN input carries its own company prefix length", () => {
    const result = normaliseIdentifier("gs1_sgtin", TDS_SGTIN_URN);
    expect(result.canonical).toBe(TDS_SGTIN_ELEMENT);
    expect(result.epcUri).toBe(TDS_SGTIN_URN);
  });

  test("special serial characters are escaped per Digital Link and EPC rules", () => {
    const serial = `1/2%3&"<>?`;
    const result = normaliseIdentifier("gs1_sgtin", `(01)09506000134352(21)${serial}`, { companyPrefixLength: 7 });
    expect(result.canonical).toBe(`(01)09506000134352(21)${serial}`);
    expect(result.digitalLink).toBe("https://id.gs1.org/01/09506000134352/21/1%2F2%253%26%22%3C%3E%3F");
    expect(result.epcUri).toBe("urn:epc:id:sgtin:9506000.013435.1%2F2%253%26%22%3C%3E%3F");
    expect(canonical("gs1_sgtin", result.digitalLink ?? "")).toBe(result.canonical);
    expect(canonical("gs1_sgtin", result.epcUri ?? "")).toBe(result.canonical);
    // Lower-case escapes and unnecessary escapes are the same identifier.
    expect(canonical("gs1_sgtin", "urn:epc:id:sgtin:9506000.013435.1%2f2%253%26%22%3c%3e%3f")).toBe(result.canonical);
  });

  test("literal brackets in a serial can be escaped in element strings", () => {
    expect(canonical("gs1_sgtin", "(01)09506000134352(21)A\\(B)")).toBe("(01)09506000134352(21)A(B)");
    // A "(" not followed by a known AI is data.
    expect(canonical("gs1_sgtin", "(01)09506000134352(21)A(B)")).toBe("(01)09506000134352(21)A(B)");
  });

  test("errors", () => {
    expect(formatError(() => normaliseIdentifier("gs1_sgtin", "(01)09506000134353(21)ABC"))).toBe(
      "GTIN check digit is 3, expected 2",
    );
    expect(formatError(() => normaliseIdentifier("gs1_sgtin", "https://id.gs1.org/01/09506000134353/21/ABC"))).toBe(
      "GTIN check digit is 3, expected 2",
    );
    expect(formatError(() => normaliseIdentifier("gs1_sgtin", "09506000134352ABC"))).toContain(
      "gs1_sgtin needs a GTIN and a serial number",
    );
    expect(formatError(() => normaliseIdentifier("gs1_sgtin", "(01)09506000134352"))).toBe(
      "element string has a GTIN but no serial number (AI 21); an SGTIN needs both",
    );
    expect(formatError(() => normaliseIdentifier("gs1_sgtin", "https://id.gs1.org/01/09506000134352"))).toBe(
      "Digital Link has a GTIN but no serial number (AI 21); an SGTIN needs both",
    );
    expect(formatError(() => normaliseIdentifier("gs1_sgtin", GIAI))).toContain("does not contain a GTIN (AI 01)");
    expect(formatError(() => normaliseIdentifier("gs1_sgtin", "https://example.com/products/42"))).toContain(
      "is not a GS1 Digital Link",
    );
    expect(formatError(() => normaliseIdentifier("gs1_sgtin", "(01)09506000134352(21)123456789012345678901"))).toBe(
      "serial number (AI 21) is 21 characters long; the maximum is 20",
    );
    expect(formatError(() => normaliseIdentifier("gs1_sgtin", "(01)09506000134352(21)AB#C"))).toBe(
      `serial number (AI 21) contains "#" (U+0023) at position 3; only digits, letters and !"%&'()*+,-./:;<=>?_ are allowed`,
    );
    expect(formatError(() => normaliseIdentifier("gs1_sgtin", "(01)09506000134352(21)A B"))).toContain(
      "contains a space at position 2",
    );
    expect(formatError(() => normaliseIdentifier("gs1_sgtin", "(01)09506000134352(21)"))).toBe(
      "serial number (AI 21) is empty",
    );
    expect(formatError(() => normaliseIdentifier("gs1_sgtin", "(01)09506000134352(21)A(21)B"))).toBe(
      "AI (21) appears more than once with different values",
    );
    expect(formatError(() => normaliseIdentifier("gs1_sgtin", "(7777)x"))).toContain("(7777), which is not supported");
    expect(formatError(() => normaliseIdentifier("gs1_sgtin", "urn:epc:id:giai:0614141.12345"))).toBe(
      "EPC URN is not an SGTIN",
    );
    expect(formatError(() => normaliseIdentifier("gs1_sgtin", "   "))).toBe("SGTIN is empty");
    expect(formatError(() => normaliseIdentifier("gs1_sgtin", SGTIN, { companyPrefixLength: 5 }))).toBe(
      "companyPrefixLength must be a whole number from 6 to 12, got 5",
    );
    expect(formatError(() => normaliseIdentifier("gs1_sgtin", SGTIN, { companyPrefixLength: 7.5 }))).toContain(
      "companyPrefixLength must be a whole number",
    );
  });
});

describe("gs1_giai", () => {
  test.each([
    ["bare key", "061414112345"],
    ["bare key with whitespace", " 061414112345\t"],
    ["element string", GIAI],
    ["Digital Link on id.gs1.org", "https://id.gs1.org/8004/061414112345"],
    ["Digital Link, other host + prefix + query", "https://assets.example.org/r/8004/061414112345?linkType=gs1:pip"],
    ["Digital Link with legacy alias", "https://example.org/giai/061414112345"],
    ["Digital Link with percent-encoded digits", "https://example.org/8004/0614141%312345"],
    ["GS1-128 symbology id", "]C18004061414112345"],
    ["GS1 DataMatrix symbology id", "]d28004061414112345"],
    ["GS1 QR symbology id", "]Q38004061414112345"],
    ["leading FNC1", `${GS}8004061414112345`],
    ["EPC URN", "urn:epc:id:giai:0614141.12345"],
    ["EPC URN, upper-case prefix", "URN:EPC:ID:GIAI:0614141.12345"],
    ["EPC tag URI", "urn:epc:tag:giai-96:0.0614141.12345"],
  ])("%s", (_label, value) => {
    expect(canonical("gs1_giai", value)).toBe(GIAI);
  });

  test("full result", () => {
    expect(normaliseIdentifier("gs1_giai", "061414112345", { companyPrefixLength: 7 })).toEqual({
      scheme: "gs1_giai",
      canonical: GIAI,
      elementString: GIAI,
      digitalLink: "https://id.gs1.org/8004/061414112345",
      epcUri: "urn:epc:id:giai:0614141.12345",
      equivalents: [{ scheme: "rfid_epc", canonical: "urn:epc:id:giai:0614141.12345" }],
    });
    expect(normaliseIdentifier("gs1_giai", "061414112345").epcUri).toBeUndefined();
  });

  test("an unprefixed 8004... string is a bare GIAI, not an element string", () => {
    expect(canonical("gs1_giai", "8004061414112345")).toBe("(8004)8004061414112345");
  });

  test("alphanumeric GIAI with characters that need escaping", () => {
    const result = normaliseIdentifier("gs1_giai", "0614141AB/C-1", { companyPrefixLength: 7 });
    expect(result.canonical).toBe("(8004)0614141AB/C-1");
    expect(result.digitalLink).toBe("https://id.gs1.org/8004/0614141AB%2FC-1");
    expect(result.epcUri).toBe("urn:epc:id:giai:0614141.AB%2FC-1");
    expect(canonical("gs1_giai", result.digitalLink ?? "")).toBe(result.canonical);
    expect(canonical("gs1_giai", result.epcUri ?? "")).toBe(result.canonical);
    expect(canonical("rfid_epc", result.epcUri ?? "")).toBe(result.epcUri ?? "");
  });

  test("30 characters is the maximum", () => {
    const max = "0614141" + "A".repeat(23);
    expect(canonical("gs1_giai", max)).toBe(`(8004)${max}`);
    expect(formatError(() => normaliseIdentifier("gs1_giai", `${max}B`))).toBe(
      "GIAI is 31 characters long; the maximum is 30",
    );
  });

  test("errors", () => {
    expect(formatError(() => normaliseIdentifier("gs1_giai", "1234AB"))).toBe(
      'GIAI must start with a GS1 Company Prefix of at least 6 digits, but "1234AB" starts with 4',
    );
    expect(formatError(() => normaliseIdentifier("gs1_giai", "ABC123456"))).toContain("starts with 0");
    expect(formatError(() => normaliseIdentifier("gs1_giai", "0614141#1"))).toBe(
      `GIAI contains "#" (U+0023) at position 8; only digits, letters and !"%&'()*+,-./:;<=>?_ are allowed`,
    );
    expect(formatError(() => normaliseIdentifier("gs1_giai", "0614141é"))).toContain('"é" (U+00E9) at position 8');
    expect(formatError(() => normaliseIdentifier("gs1_giai", ""))).toBe("GIAI is empty");
    expect(formatError(() => normaliseIdentifier("gs1_giai", "(8004)"))).toBe("GIAI is empty");
    expect(formatError(() => normaliseIdentifier("gs1_giai", SGTIN))).toBe(
      "element string does not contain a GIAI (AI 8004)",
    );
    expect(formatError(() => normaliseIdentifier("gs1_giai", "https://id.gs1.org/01/09506000134352/21/ABC"))).toBe(
      "Digital Link does not contain a GIAI (AI 8004)",
    );
    expect(formatError(() => normaliseIdentifier("gs1_giai", "]C18004"))).toBe("GIAI is empty");
    expect(formatError(() => normaliseIdentifier("gs1_giai", "]C1X12"))).toContain("unrecognised Application Identifier");
    expect(formatError(() => normaliseIdentifier("gs1_giai", "061414112345", { companyPrefixLength: 13 }))).toBe(
      "companyPrefixLength must be a whole number from 6 to 12, got 13",
    );
    expect(formatError(() => normaliseIdentifier("gs1_giai", "0614141AB", { companyPrefixLength: 9 }))).toBe(
      'companyPrefixLength 9 is longer than the 7 leading digits of GIAI "0614141AB"',
    );
    expect(formatError(() => normaliseIdentifier("gs1_giai", "0614141", { companyPrefixLength: 7 }))).toBe(
      'GIAI "0614141" has no asset reference after a 7-digit company prefix',
    );
  });
});

describe("rfid_epc", () => {
  test("decodes the TDS SGTIN-96 example and reports the GS1 equivalent", () => {
    expect(normaliseIdentifier("rfid_epc", TDS_SGTIN_HEX)).toEqual({
      scheme: "rfid_epc",
      canonical: TDS_SGTIN_URN,
      epcUri: TDS_SGTIN_URN,
      elementString: TDS_SGTIN_ELEMENT,
      digitalLink: "https://id.gs1.org/01/80614141123458/21/6789",
      equivalents: [{ scheme: "gs1_sgtin", canonical: TDS_SGTIN_ELEMENT }],
    });
  });

  test.each([
    ["upper-case hex", TDS_SGTIN_HEX],
    ["lower-case hex", TDS_SGTIN_HEX.toLowerCase()],
    ["0x prefix", `0x${TDS_SGTIN_HEX}`],
    ["grouped hex", "3074 257B F719 4E40 0000 1A85"],
    ["pure-identity URN", TDS_SGTIN_URN],
    ["URN with upper-case prefix", "URN:EPC:ID:SGTIN:0614141.812345.6789"],
    ["tag URI", "urn:epc:tag:sgtin-96:3.0614141.812345.6789"],
  ])("SGTIN spelling: %s", (_label, value) => {
    expect(canonical("rfid_epc", value)).toBe(TDS_SGTIN_URN);
  });

  test("GIAI URN reports the GS1 equivalent", () => {
    const result = normaliseIdentifier("rfid_epc", "urn:epc:id:giai:0614141.12345");
    expect(result.canonical).toBe("urn:epc:id:giai:0614141.12345");
    expect(result.elementString).toBe(GIAI);
    expect(result.equivalents).toEqual([{ scheme: "gs1_giai", canonical: GIAI }]);
  });

  test("other EPC schemes are accepted as opaque URNs", () => {
    const result = normaliseIdentifier("rfid_epc", "urn:epc:id:sscc:0614141.1234567890");
    expect(result).toEqual({
      scheme: "rfid_epc",
      canonical: "urn:epc:id:sscc:0614141.1234567890",
      epcUri: "urn:epc:id:sscc:0614141.1234567890",
      equivalents: [],
    });
    expect(canonical("rfid_epc", "URN:EPC:ID:GRAI:0614141.12345.a%2fb")).toBe("urn:epc:id:grai:0614141.12345.a%2Fb");
  });

  test("errors", () => {
    expect(formatError(() => normaliseIdentifier("rfid_epc", "3174257BF7194E4000001A85"))).toBe(
      "EPC header 0x31 (SSCC-96) is not supported; only SGTIN-96 (0x30) and GIAI-96 (0x34) can be decoded",
    );
    expect(formatError(() => normaliseIdentifier("rfid_epc", "E2801160600002054CC2096F"))).toBe(
      "EPC header 0xE2 is not supported; only SGTIN-96 (0x30) and GIAI-96 (0x34) can be decoded",
    );
    expect(formatError(() => normaliseIdentifier("rfid_epc", "3074257BF7194E4000001A"))).toBe(
      "a hex EPC must be 96 bits (24 hex digits), got 22 hex digits",
    );
    // Partition 7 (bits 0b111 after the filter) does not exist.
    expect(formatError(() => normaliseIdentifier("rfid_epc", "307C257BF7194E4000001A85"))).toBe(
      "EPC partition value 7 is invalid (must be 0–6)",
    );
    expect(formatError(() => normaliseIdentifier("rfid_epc", "urn:epc:id:foo:1.2"))).toBe(
      'EPC scheme "foo" is not a known EPC identifier type',
    );
    expect(formatError(() => normaliseIdentifier("rfid_epc", "urn:epc:id:sgtin:0614141.81234.6789"))).toBe(
      "SGTIN company prefix and item reference must total 13 digits, got 12",
    );
    expect(formatError(() => normaliseIdentifier("rfid_epc", "urn:epc:id:sgtin:06141.8123456.6789"))).toBe(
      "SGTIN company prefix must be 6 to 12 digits, got 5",
    );
    expect(formatError(() => normaliseIdentifier("rfid_epc", "urn:epc:id:sgtin:0614141.812345"))).toContain(
      "SGTIN EPC URN must look like",
    );
    expect(formatError(() => normaliseIdentifier("rfid_epc", "urn:epc:id:sgtin:0614141.812345.A%G1"))).toBe(
      'SGTIN serial has a "%" that is not followed by two hex digits',
    );
    expect(formatError(() => normaliseIdentifier("rfid_epc", "urn:epc:id:sscc:0614141 1"))).toContain(
      "not allowed in an EPC URI",
    );
    expect(formatError(() => normaliseIdentifier("rfid_epc", "urn:isbn:123"))).toContain(
      "is not an EPC pure-identity URN",
    );
    expect(formatError(() => normaliseIdentifier("rfid_epc", "hello"))).toBe(
      "rfid_epc must be an EPC pure-identity URN (urn:epc:id:...) or a 96-bit EPC in hex (24 hex digits)",
    );
    expect(formatError(() => normaliseIdentifier("rfid_epc", ""))).toBe("EPC is empty");
  });
});

describe("EPC binary encoding (SGTIN-96 / GIAI-96)", () => {
  test("encodes the TDS SGTIN-96 example (filter 3)", () => {
    expect(encodeEpcHex(TDS_SGTIN_URN, { filter: 3 })).toBe(TDS_SGTIN_HEX);
    expect(decodeEpcHex(TDS_SGTIN_HEX)).toBe(TDS_SGTIN_URN);
  });

  test("GIAI-96 matches a hand-built bit layout and round-trips", () => {
    // header 0x34 | filter 1 | partition 5 (7-digit prefix: 24 bits) | asset reference in 58 bits
    const bits =
      "00110100" + "001" + "101" + (614141).toString(2).padStart(24, "0") + (12345).toString(2).padStart(58, "0");
    expect(bits).toHaveLength(96);
    const expected = BigInt(`0b${bits}`).toString(16).toUpperCase().padStart(24, "0");
    expect(expected).toBe("3434257BF400000000003039");
    expect(encodeEpcHex("urn:epc:id:giai:0614141.12345", { filter: 1 })).toBe(expected);
    expect(decodeEpcHex(expected)).toBe("urn:epc:id:giai:0614141.12345");
    expect(parseScan(expected).slice(0, 2)).toEqual([
      { scheme: "rfid_epc", canonical: "urn:epc:id:giai:0614141.12345" },
      { scheme: "gs1_giai", canonical: GIAI },
    ]);
  });

  test("round-trips every partition", () => {
    const gtin = "04006381333931";
    for (let cp = 6; cp <= 12; cp++) {
      const sgtin = normaliseIdentifier("gs1_sgtin", `(01)${gtin}(21)274877906943`, { companyPrefixLength: cp });
      const sgtinUrn = sgtin.epcUri ?? "";
      expect(decodeEpcHex(encodeEpcHex(sgtinUrn))).toBe(sgtinUrn);
      expect(normaliseIdentifier("rfid_epc", encodeEpcHex(sgtinUrn, { filter: 7 })).equivalents).toEqual([
        { scheme: "gs1_sgtin", canonical: sgtin.canonical },
      ]);

      const giai = normaliseIdentifier("gs1_giai", `${"400638133393".slice(0, cp)}1234567890`, { companyPrefixLength: cp });
      const giaiUrn = giai.epcUri ?? "";
      expect(decodeEpcHex(encodeEpcHex(giaiUrn))).toBe(giaiUrn);
    }
  });

  test("refuses values that do not fit 96 bits", () => {
    expect(formatError(() => encodeEpcHex("urn:epc:id:sgtin:0614141.812345.ABC"))).toContain(
      'serial "ABC" cannot be encoded in SGTIN-96',
    );
    expect(formatError(() => encodeEpcHex("urn:epc:id:sgtin:0614141.812345.0123"))).toContain("without leading zeros");
    expect(formatError(() => encodeEpcHex("urn:epc:id:sgtin:0614141.812345.274877906944"))).toContain(
      "at most 274877906943",
    );
    expect(formatError(() => encodeEpcHex("urn:epc:id:giai:0614141.A1"))).toContain("cannot be encoded in GIAI-96");
    expect(formatError(() => encodeEpcHex("urn:epc:id:sscc:0614141.1234567890"))).toBe(
      "only SGTIN and GIAI EPC URNs can be encoded as 96-bit EPCs",
    );
    expect(formatError(() => encodeEpcHex(TDS_SGTIN_URN, { filter: 8 }))).toBe(
      "EPC filter must be a whole number from 0 to 7, got 8",
    );
    expect(formatError(() => decodeEpcHex("xyz"))).toContain("exactly 24 hex digits");
  });
});

describe("serial and asset_tag", () => {
  test.each(["serial", "asset_tag"] as const)("%s is trimmed and case-preserving", (scheme) => {
    expect(normaliseIdentifier(scheme, "  SN-0001 Ä  ")).toEqual({ scheme, canonical: "SN-0001 Ä", equivalents: [] });
    expect(canonical(scheme, "abc")).not.toBe(canonical(scheme, "ABC"));
  });

  test("composed and decomposed accents are one identifier", () => {
    expect(canonical("asset_tag", "Cafe\u0301")).toBe(canonical("asset_tag", "Caf\u00e9"));
  });

  test("length limit counts characters, not UTF-16 units", () => {
    expect(canonical("serial", "😀".repeat(128))).toBe("😀".repeat(128));
    expect(formatError(() => normaliseIdentifier("serial", "x".repeat(129)))).toBe(
      "serial is 129 characters long; the maximum is 128",
    );
  });

  test("errors", () => {
    expect(formatError(() => normaliseIdentifier("serial", " \t "))).toBe("serial is empty");
    expect(formatError(() => normaliseIdentifier("asset_tag", "AB\u0000C"))).toBe(
      "asset tag contains a non-printable character (U+0000) at position 3",
    );
    expect(formatError(() => normaliseIdentifier("asset_tag", `01${GS}21`))).toContain("(U+001D) at position 3");
    expect(formatError(() => normaliseIdentifier("serial", "a\u200bb"))).toContain("non-printable");
  });
});

describe("url", () => {
  test.each([
    ["https://Example.COM/a/b?x=1", "https://example.com/a/b?x=1"],
    ["  https://example.com  ", "https://example.com/"],
    ["HTTPS://example.com:443/x", "https://example.com/x"],
    ["http://example.com:8080/a b", "http://example.com:8080/a%20b"],
  ])("%s -> %s", (value, expected) => {
    expect(normaliseIdentifier("url", value)).toEqual({ scheme: "url", canonical: expected, equivalents: [] });
  });

  test("errors", () => {
    expect(formatError(() => normaliseIdentifier("url", "/relative/path"))).toBe(
      '"/relative/path" is not an absolute URL',
    );
    expect(formatError(() => normaliseIdentifier("url", "ftp://example.com/x"))).toBe(
      'URL must use http or https, got "ftp"',
    );
    expect(formatError(() => normaliseIdentifier("url", "mailto:a@example.com"))).toContain("http or https");
    expect(formatError(() => normaliseIdentifier("url", ""))).toBe("URL is empty");
    expect(formatError(() => normaliseIdentifier("url", `https://example.com/${"a".repeat(2100)}`))).toContain(
      "the maximum is 2048",
    );
  });
});

describe("canonical forms are stable", () => {
  test.each([
    ["gs1_sgtin", SGTIN],
    ["gs1_sgtin", "(01)00000096385074(21)x!%&'()*+,-./:;<=>?_"],
    ["gs1_giai", GIAI],
    ["gs1_giai", "(8004)061414112345-A/B%C"],
  ] as const)("%s %s", (scheme, value) => {
    const first = normaliseIdentifier(scheme, value, { companyPrefixLength: 7 });
    expect(first.canonical).toBe(value);
    expect(canonical(scheme, first.canonical)).toBe(value);
    expect(canonical(scheme, first.digitalLink ?? "")).toBe(value);
    expect(canonical(scheme, first.epcUri ?? "")).toBe(value);
    expect(normaliseIdentifier("rfid_epc", first.epcUri ?? "").equivalents).toEqual([{ scheme, canonical: value }]);
    expect(parseScan(first.digitalLink ?? "")[0]).toEqual({ scheme, canonical: value });
    expect(parseScan(first.epcUri ?? "")).toContainEqual({ scheme, canonical: value });
  });
});

describe("parseScan", () => {
  test("GS1 Digital Link: GS1 key, then the URL, then plain fallbacks", () => {
    const url = "https://id.gs1.org/01/09506000134352/21/ABC";
    expect(parseScan(url)).toEqual([
      { scheme: "gs1_sgtin", canonical: SGTIN },
      { scheme: "url", canonical: url },
      { scheme: "asset_tag", canonical: url },
      { scheme: "serial", canonical: url },
    ]);
  });

  test("Digital Link on any host with a path prefix", () => {
    const result = parseScan("https://scan.example.com/p/8004/061414112345?src=qr");
    expect(result[0]).toEqual({ scheme: "gs1_giai", canonical: GIAI });
    expect(result[1]).toEqual({ scheme: "url", canonical: "https://scan.example.com/p/8004/061414112345?src=qr" });
  });

  test("ordinary URL", () => {
    expect(parseScan("https://Example.com/asset/42")).toEqual([
      { scheme: "url", canonical: "https://example.com/asset/42" },
      { scheme: "asset_tag", canonical: "https://Example.com/asset/42" },
      { scheme: "serial", canonical: "https://Example.com/asset/42" },
    ]);
  });

  test.each([
    ["bracketed", SGTIN],
    ["GS1 DataMatrix with GS", `]d20109506000134352${"21"}ABC${GS}10LOT`],
    ["GS1-128", "]C1010950600013435221ABC"],
    ["leading FNC1", `${GS}010950600013435221ABC`],
    ["unbracketed without symbology id", "010950600013435221ABC"],
    ["trailing CR/LF from a keyboard-wedge scanner", `]Q3010950600013435221ABC\r\n`],
  ])("element string (%s) -> SGTIN first", (_label, raw) => {
    expect(parseScan(raw)[0]).toEqual({ scheme: "gs1_sgtin", canonical: SGTIN });
  });

  test("raw element string from the brief", () => {
    expect(parseScan("01095060001343522112345")).toEqual([
      { scheme: "gs1_sgtin", canonical: "(01)09506000134352(21)12345" },
      { scheme: "asset_tag", canonical: "01095060001343522112345" },
      { scheme: "serial", canonical: "01095060001343522112345" },
    ]);
  });

  test("GS1-128 GIAI with symbology id", () => {
    expect(parseScan("]C18004061414112345")).toEqual([
      { scheme: "gs1_giai", canonical: GIAI },
      { scheme: "asset_tag", canonical: "8004061414112345" },
      { scheme: "serial", canonical: "8004061414112345" },
    ]);
  });

  test("element string carrying both an SGTIN and a GIAI", () => {
    expect(parseScan(`${SGTIN}(8004)061414112345`).slice(0, 2)).toEqual([
      { scheme: "gs1_sgtin", canonical: SGTIN },
      { scheme: "gs1_giai", canonical: GIAI },
    ]);
  });

  test("EPC hex: rfid_epc URN first, then the equivalent SGTIN", () => {
    expect(parseScan(TDS_SGTIN_HEX)).toEqual([
      { scheme: "rfid_epc", canonical: TDS_SGTIN_URN },
      { scheme: "gs1_sgtin", canonical: TDS_SGTIN_ELEMENT },
      { scheme: "asset_tag", canonical: TDS_SGTIN_HEX },
      { scheme: "serial", canonical: TDS_SGTIN_HEX },
    ]);
  });

  test("EPC URN", () => {
    expect(parseScan("urn:epc:id:giai:0614141.12345").slice(0, 2)).toEqual([
      { scheme: "rfid_epc", canonical: "urn:epc:id:giai:0614141.12345" },
      { scheme: "gs1_giai", canonical: GIAI },
    ]);
    expect(parseScan("urn:epc:id:sscc:0614141.1234567890")[0]).toEqual({
      scheme: "rfid_epc",
      canonical: "urn:epc:id:sscc:0614141.1234567890",
    });
  });

  test("a plain barcode with a bare GIAI also offers the GIAI, last", () => {
    expect(parseScan(" 061414112345 ")).toEqual([
      { scheme: "asset_tag", canonical: "061414112345" },
      { scheme: "serial", canonical: "061414112345" },
      { scheme: "gs1_giai", canonical: GIAI },
    ]);
  });

  test("plain strings become asset_tag and serial candidates", () => {
    expect(parseScan("  TAG-0042 ")).toEqual([
      { scheme: "asset_tag", canonical: "TAG-0042" },
      { scheme: "serial", canonical: "TAG-0042" },
    ]);
    // Non-GS1 symbology identifiers (plain Code 128) are stripped too.
    expect(parseScan("]C0TAG-0042")[0]).toEqual({ scheme: "asset_tag", canonical: "TAG-0042" });
  });

  test("invalid check digit gives no GS1 candidate", () => {
    expect(parseScan("(01)09506000134353(21)ABC")).toEqual([
      { scheme: "asset_tag", canonical: "(01)09506000134353(21)ABC" },
      { scheme: "serial", canonical: "(01)09506000134353(21)ABC" },
    ]);
    expect(parseScan("https://id.gs1.org/01/09506000134353/21/ABC").map((c) => c.scheme)).toEqual([
      "url",
      "asset_tag",
      "serial",
    ]);
    expect(parseScan("010950600013435321ABC").map((c) => c.scheme)).toEqual(["asset_tag", "serial", "gs1_giai"]);
  });

  test("a GTIN without a serial is not an SGTIN", () => {
    expect(parseScan("]E04006381333931").map((c) => c.scheme)).toEqual(["asset_tag", "serial", "gs1_giai"]);
    expect(parseScan("https://id.gs1.org/01/09506000134352").map((c) => c.scheme)).toEqual([
      "url",
      "asset_tag",
      "serial",
    ]);
  });

  test("unsupported EPC header falls back to plain candidates", () => {
    expect(parseScan("3174257BF7194E4000001A85").map((c) => c.scheme)).toEqual(["asset_tag", "serial", "gs1_giai"]);
  });

  test("never throws and returns [] when nothing fits", () => {
    for (const raw of ["", "   ", "\u0000", GS, `]C1${GS}`, "\ud800", "x".repeat(500)]) {
      expect(parseScan(raw)).toEqual([]);
    }
    for (const raw of ["%", "https://[", "https://", "urn:epc:id:", "(", "()", "(01)", "]", "]C1", "0x", "%E0%A4%A"]) {
      expect(() => parseScan(raw)).not.toThrow();
    }
    expect(parseScan(undefined as unknown as string)).toEqual([]);
  });

  test("pathological long input stays linear", () => {
    const started = performance.now();
    parseScan(`https://example.com/${"01/".repeat(50_000)}x/y/z`);
    parseScan(`(01)${"(".repeat(200_000)}`);
    parseScan(`]C121${"A".repeat(500_000)}`);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  test("candidates are unique", () => {
    for (const raw of [SGTIN, TDS_SGTIN_HEX, "https://id.gs1.org/8004/061414112345", "061414112345"]) {
      const keys = parseScan(raw).map((c) => `${c.scheme}|${c.canonical}`);
      expect(new Set(keys).size).toBe(keys.length);
    }
  });
});
