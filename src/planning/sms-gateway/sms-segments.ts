// Segment count and encoding of an SMS text (3GPP TS 23.038 / 23.040). A text
// made only of GSM 03.38 default-alphabet characters is GSM-7: 160 septets in one
// segment, 153 per segment once concatenated (the UDH takes 7). Extension-table
// characters cost two septets (escape + char) and an escape pair is never split
// across segments. Anything else is UCS-2: 70 UTF-16 units in one segment, 67 per
// concatenated segment, and a surrogate pair is never split.

const GSM7_BASIC =
  "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞ\u001bÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?" +
  "¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà";
const GSM7_EXTENSION = "\f^{}\\[~]|€";

const BASIC = new Set([...GSM7_BASIC].filter((c) => c !== "\u001b"));
const EXTENSION = new Set([...GSM7_EXTENSION]);

export type SmsEncoding = "gsm7" | "ucs2";

export interface SegmentInfo {
  encoding: SmsEncoding;
  segments: number;
  /** Septets (GSM-7) or UTF-16 code units (UCS-2) the text takes. */
  units: number;
  characters: number;
}

/** GSM-7 septets per character, or null when the character needs UCS-2. */
function septets(ch: string): 1 | 2 | null {
  if (BASIC.has(ch)) return 1;
  if (EXTENSION.has(ch)) return 2;
  return null;
}

/** Packs indivisible units (an escape pair, a surrogate pair) into segments of `per` units. */
function pack(sizes: number[], single: number, per: number): number {
  const total = sizes.reduce((a, b) => a + b, 0);
  if (total <= single) return 1;
  let segments = 1;
  let used = 0;
  for (const size of sizes) {
    if (used + size > per) {
      segments++;
      used = 0;
    }
    used += size;
  }
  return segments;
}

export function segmentInfo(text: string): SegmentInfo {
  const chars = [...text];
  const gsm = chars.map(septets);
  if (gsm.every((s) => s !== null)) {
    const sizes = gsm as number[];
    return { encoding: "gsm7", segments: pack(sizes, 160, 153), units: sizes.reduce((a, b) => a + b, 0), characters: chars.length };
  }
  const sizes = chars.map((c) => c.length);
  return { encoding: "ucs2", segments: pack(sizes, 70, 67), units: sizes.reduce((a, b) => a + b, 0), characters: chars.length };
}
