import { expect, test } from "bun:test";
import { sniffType, typeMismatch } from "./sniff.ts";

const b = (...parts: Array<string | number[]>) => Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p, "latin1") : Buffer.from(p))));

test("leading bytes name the type", () => {
  expect(sniffType(b("%PDF-1.7\n"))).toBe("application/pdf");
  expect(sniffType(b([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], "rest"))).toBe("image/png");
  expect(sniffType(b([0xff, 0xd8, 0xff, 0xe0]))).toBe("image/jpeg");
  expect(sniffType(b("MZ", [0x90, 0]))).toBe("application/x-msdownload");
  expect(sniffType(b([0x7f], "ELF", [2, 1]))).toBe("application/x-executable");
  expect(sniffType(b("#!/bin/sh\nrm -rf /\n"))).toBe("text/x-shellscript");
  expect(sniffType(b("PK", [3, 4]))).toBe("application/zip");
  expect(sniffType(Buffer.from("hello, wörld\n", "utf8"))).toBe("text/plain");
  expect(sniffType(b([0, 1, 2, 3]))).toBe("application/octet-stream");
});

test("a declared type must agree with the bytes; an executable never does", () => {
  expect(typeMismatch("image/png", "application/x-msdownload")).toContain("executable");
  expect(typeMismatch("application/octet-stream", "application/x-executable")).toContain("executable");
  expect(typeMismatch("image/png", "image/jpeg")).toBe("declared image/png but content is image/jpeg");
  expect(typeMismatch("image/png", "application/octet-stream")).toBeDefined();
  expect(typeMismatch("application/pdf", "application/pdf")).toBeUndefined();
  expect(typeMismatch("Application/PDF; name=x", "application/pdf")).toBeUndefined();
  expect(typeMismatch("application/vnd.openxmlformats-officedocument.wordprocessingml.document", "application/zip")).toBeUndefined();
  expect(typeMismatch("text/csv", "text/plain")).toBeUndefined();
  expect(typeMismatch("text/csv", "application/pdf")).toBeDefined();
  expect(typeMismatch("audio/mpeg", "application/octet-stream")).toBeUndefined();
  expect(typeMismatch("image/jpg", "image/jpeg")).toBeUndefined();
});
