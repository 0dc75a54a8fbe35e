// Validation of EPCIS documents: the official EPCIS 2.0.1 JSON Schema (draft-07, so
// Ajv's default class with ajv-formats; shipped unchanged in ./standards/) and our
// profile rules, which check what the schema checks loosely.
import Ajv, { type ErrorObject } from "ajv";
import addFormats from "ajv-formats";
import officialSchema from "./standards/epcis-json-schema-2.0.1.json" with { type: "json" };
import type { EpcisValidationResult } from "./epcis.schemas.ts";

const MAX_ERRORS = 1000;

export const CHECKED_AGAINST = {
  schema: "GS1 EPCIS 2.0.1 JSON Schema (https://ref.gs1.org/standards/epcis/2.0.1/epcis-json-schema.json)",
  profile: "svc-ams EPCIS profile 1: schemaVersion 2.0, CBV 2.0.0 bare words, explicit time zones",
};

let compiled: ReturnType<Ajv["compile"]> | undefined;
function schemaValidator() {
  if (!compiled) {
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats(ajv);
    compiled = ajv.compile(officialSchema as object);
  }
  return compiled;
}

type Issue = EpcisValidationResult["errors"][number];

const esc = (s: string) => s.replaceAll("~", "~0").replaceAll("/", "~1");

/** Ajv's instancePath, extended to the property a required/additional/propertyNames error is about. */
function pathOf(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  const prop = p.missingProperty ?? p.additionalProperty ?? (e.keyword === "propertyNames" ? p.propertyName : undefined);
  return typeof prop === "string" ? `${e.instancePath}/${esc(prop)}` : e.instancePath;
}

function schemaIssues(doc: unknown): Issue[] {
  const validate = schemaValidator();
  if (validate(doc)) return [];
  const seen = new Set<string>();
  const out: Issue[] = [];
  for (const e of validate.errors ?? []) {
    // `if` errors only restate the failed `then` branch reported beside them.
    if (e.keyword === "if") continue;
    const issue: Issue = { path: pathOf(e), message: e.message ?? e.keyword, rule: "schema" };
    const key = `${issue.path}\u0000${issue.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push(issue);
    }
  }
  return out;
}

// ------------------------------------------------------------------ profile rules

/** CBV 2.0.0 vocabularies, by the field that takes them (bare words only). */
export const CBV = {
  bizStep: new Set([
    "accepting", "arriving", "assembling", "collecting", "commissioning", "consigning", "creating_class_instance", "cycle_counting",
    "decommissioning", "departing", "destroying", "disassembling", "dispensing", "encoding", "entering_exiting", "holding", "inspecting",
    "installing", "killing", "loading", "other", "packing", "picking", "receiving", "removing", "repackaging", "repairing", "replacing",
    "reserving", "retail_selling", "sampling", "sensor_reporting", "shipping", "staging_outbound", "stock_taking", "stocking", "storing",
    "transporting", "unloading", "unpacking", "void_shipping",
  ]),
  disposition: new Set([
    "active", "available", "completeness_inferred", "completeness_verified", "conformant", "container_closed", "container_open", "damaged",
    "destroyed", "dispensed", "disposed", "encoded", "expired", "in_progress", "in_transit", "inactive", "mismatch_class", "mismatch_instance",
    "mismatch_quantity", "needs_replacement", "no_pedigree_match", "non_conformant", "non_sellable_other", "partially_dispensed", "recalled",
    "reserved", "retail_sold", "returned", "sellable_accessible", "sellable_not_accessible", "stolen", "unavailable", "unknown",
  ]),
  errorReason: new Set(["did_not_occur", "incorrect_data"]),
  sourceDestType: new Set(["owning_party", "possessing_party", "location"]),
  bizTransactionType: new Set(["bol", "cert", "desadv", "inv", "pedigree", "po", "poc", "prodorder", "recadv", "rma", "testprd", "testres", "upevt"]),
} as const;

/** The URI spellings of CBV and GS1 Web Vocabulary terms that EPCIS 2.0 JSON replaces with bare words. */
const CBV_URI_FORM = /^(urn:epcglobal:cbv:|https?:\/\/(ns\.gs1\.org\/cbv\/|ref\.gs1\.org\/cbv\/|(www\.)?gs1\.org\/voc\/)|cbv:)/i;
const OFFSET = /^[+-](?:(?:0\d|1[0-3]):[0-5]\d|14:00)$/;
const NUMERIC_OFFSET = /([+-]\d{2}:\d{2})$/;

function vocabulary(value: unknown, words: ReadonlySet<string>, path: string, what: string, out: Issue[]): void {
  if (typeof value !== "string") return;
  if (CBV_URI_FORM.test(value)) {
    out.push({ path, message: `${what} must be a CBV 2.0.0 bare word, not the URI form ${JSON.stringify(value)}`, rule: "profile" });
  } else if (!value.includes(":") && !words.has(value)) {
    out.push({ path, message: `${what} ${JSON.stringify(value)} is not a CBV 2.0.0 term (a partner's own term must be a URI)`, rule: "profile" });
  }
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const each = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function eventIssues(ev: unknown, at: string, out: Issue[]): void {
  if (!isObj(ev)) return;
  const offset = ev.eventTimeZoneOffset;
  if (typeof offset !== "string" || !OFFSET.test(offset)) {
    out.push({ path: `${at}/eventTimeZoneOffset`, message: "every event needs eventTimeZoneOffset as ±hh:mm between -14:00 and +14:00", rule: "profile" });
  } else if (typeof ev.eventTime === "string") {
    // A local time written with a numeric offset must be the offset the event declares (Z, UTC, is always fine).
    const m = NUMERIC_OFFSET.exec(ev.eventTime);
    if (m && m[1] !== offset && !(m[1] === "+00:00" && offset === "-00:00")) {
      out.push({ path: `${at}/eventTime`, message: `eventTime carries offset ${m[1]} but eventTimeZoneOffset is ${offset}`, rule: "profile" });
    }
  }
  vocabulary(ev.bizStep, CBV.bizStep, `${at}/bizStep`, "bizStep", out);
  vocabulary(ev.disposition, CBV.disposition, `${at}/disposition`, "disposition", out);
  if (isObj(ev.persistentDisposition)) {
    for (const key of ["set", "unset"] as const) {
      each(ev.persistentDisposition[key]).forEach((d, i) => vocabulary(d, CBV.disposition, `${at}/persistentDisposition/${key}/${i}`, "persistentDisposition", out));
    }
  }
  if (isObj(ev.errorDeclaration)) vocabulary(ev.errorDeclaration.reason, CBV.errorReason, `${at}/errorDeclaration/reason`, "errorDeclaration reason", out);
  each(ev.sourceList).forEach((s, i) => isObj(s) && vocabulary(s.type, CBV.sourceDestType, `${at}/sourceList/${i}/type`, "source type", out));
  each(ev.destinationList).forEach((s, i) => isObj(s) && vocabulary(s.type, CBV.sourceDestType, `${at}/destinationList/${i}/type`, "destination type", out));
  each(ev.bizTransactionList).forEach((b, i) => isObj(b) && vocabulary(b.type, CBV.bizTransactionType, `${at}/bizTransactionList/${i}/type`, "bizTransaction type", out));
}

/** Our profile's rules, on top of the official schema. */
export function profileIssues(doc: unknown): Issue[] {
  const out: Issue[] = [];
  if (!isObj(doc)) return out;
  if (doc.type === "EPCISDocument" || doc.type === "EPCISQueryDocument") {
    if (doc.schemaVersion !== "2.0") out.push({ path: "/schemaVersion", message: 'schemaVersion must be the string "2.0"', rule: "profile" });
  }
  const lists: Array<[unknown, string]> = [];
  if (isObj(doc.epcisBody)) {
    lists.push([doc.epcisBody.eventList, "/epcisBody/eventList"]);
    const results = doc.epcisBody.queryResults;
    if (isObj(results) && isObj(results.resultsBody)) lists.push([results.resultsBody.eventList, "/epcisBody/queryResults/resultsBody/eventList"]);
  } else if (typeof doc.type === "string" && doc.type.endsWith("Event")) {
    eventIssues(doc, "", out);
  }
  for (const [list, at] of lists) each(list).forEach((ev, i) => eventIssues(ev, `${at}/${i}`, out));
  return out;
}

/** Every schema and profile error of a document, with its JSON Pointer. */
export function validateEpcisDocument(doc: unknown): EpcisValidationResult {
  const errors = [...schemaIssues(doc), ...profileIssues(doc)];
  return { valid: errors.length === 0, checkedAgainst: CHECKED_AGAINST, errors: errors.slice(0, MAX_ERRORS), truncated: errors.length > MAX_ERRORS };
}
