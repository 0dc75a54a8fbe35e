// GSM-7 versus UCS-2 and the segment boundaries (160/153, 70/67), with the
// two-septet extension characters and surrogate pairs that are never split.
import { test, expect } from "bun:test";
import { segmentInfo } from "./sms-segments.ts";

test("GSM-7: 160 septets are one segment, 161 are two (153 each), 306 two, 307 three", () => {
  expect(segmentInfo("a".repeat(160))).toEqual({ encoding: "gsm7", segments: 1, units: 160, characters: 160 });
  expect(segmentInfo("a".repeat(161))).toMatchObject({ encoding: "gsm7", segments: 2 });
  expect(segmentInfo("a".repeat(306))).toMatchObject({ encoding: "gsm7", segments: 2 });
  expect(segmentInfo("a".repeat(307))).toMatchObject({ encoding: "gsm7", segments: 3 });
  expect(segmentInfo("")).toMatchObject({ encoding: "gsm7", segments: 1 });
});

test("GSM-7 extension characters cost two septets and an escape pair is not split", () => {
  expect(segmentInfo("€".repeat(80))).toMatchObject({ encoding: "gsm7", segments: 1, units: 160, characters: 80 });
  expect(segmentInfo("a".repeat(159) + "€")).toMatchObject({ encoding: "gsm7", segments: 2, units: 161 });
  // 152 septets then a 2-septet char: it does not fit in the first 153 → the second segment starts with it.
  expect(segmentInfo("a".repeat(152) + "€" + "a".repeat(152))).toMatchObject({ segments: 3, units: 306 });
  expect(segmentInfo("Grüße aus Köln: 10 € [Bühne]")).toMatchObject({ encoding: "gsm7" });
});

test("UCS-2: 70 units are one segment, 71 are two (67 each), 134 two, 135 three", () => {
  expect(segmentInfo("ж".repeat(70))).toEqual({ encoding: "ucs2", segments: 1, units: 70, characters: 70 });
  expect(segmentInfo("ж".repeat(71))).toMatchObject({ encoding: "ucs2", segments: 2 });
  expect(segmentInfo("ж".repeat(134))).toMatchObject({ encoding: "ucs2", segments: 2 });
  expect(segmentInfo("ж".repeat(135))).toMatchObject({ encoding: "ucs2", segments: 3 });
  // One non-GSM character switches the whole text to UCS-2.
  expect(segmentInfo("a".repeat(69) + "ç")).toMatchObject({ encoding: "ucs2", segments: 1 });
  expect(segmentInfo("a".repeat(70) + "ç")).toMatchObject({ encoding: "ucs2", segments: 2 });
});

test("UCS-2 surrogate pairs count two units and are never split", () => {
  expect(segmentInfo("😀".repeat(35))).toMatchObject({ encoding: "ucs2", segments: 1, units: 70, characters: 35 });
  expect(segmentInfo("😀".repeat(36))).toMatchObject({ encoding: "ucs2", segments: 2, units: 72 });
  // 66 units then a pair: the pair does not fit in 67, so it opens the second segment
  // and 134 units (two segments if a pair could be split) take three.
  expect(segmentInfo("ж".repeat(66) + "😀" + "ж".repeat(66))).toMatchObject({ segments: 3, units: 134 });
});
