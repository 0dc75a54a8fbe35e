// Hostile text (issue 18 item 16): bytes that are not UTF-8, lone surrogates, Unicode
// noncharacters and control characters never get in, through any door (a JSON body,
// a query string, a multipart field or file name, a CSV cell), so no export (UBL and
// XBRL GL are XML 1.0, iCalendar forbids controls, EPCIS and the rest are JSON) can be
// made malformed by what a user typed. And a `q` with nothing to search for is a 400
// instead of a silently dropped filter.
import { test, expect, afterAll, beforeAll, describe } from "bun:test";
import { partnerKit } from "../kit.ts";
import { expectFieldError, expectProblem } from "./helpers.ts";
import type { CallResult } from "../harness.ts";

const api = await partnerKit({ partnerId: "text-in", users: { ada: "admin", vic: "viewer" } });
const env = api.env;
const planning = await partnerKit({ env, partnerId: "text-in", family: "planning", users: { ada: "admin" } });
afterAll(() => api.close());
let siteId = "";
beforeAll(async () => {
  siteId = (await api.seed.location({ name: "Site", kind: "site" })).id;
});

/** A request with a raw byte body through the real app. */
async function rawPost(path: string, bytes: Uint8Array, contentType: string, opts: { idem?: boolean } = {}): Promise<CallResult> {
  const headers: Record<string, string> = { authorization: `Bearer ${await env.token("ada")}`, "content-type": contentType };
  if (opts.idem !== false) headers["idempotency-key"] = `raw-${Math.random().toString(36).slice(2)}`;
  const res = await env.app.fetch(new Request(`http://test.local${api.url(path)}`, { method: "POST", headers, body: bytes }));
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

const REFUSED: Array<[string, string]> = [
  ["a lone high surrogate", "x\ud800y"],
  ["a lone low surrogate", "\udc00x"],
  ["U+FFFE", "Drill\ufffe"],
  ["U+FFFF", "Drill\uffff"],
  ["U+FDD0", "Drill\ufdd0"],
  ["U+1FFFE", "Drill\u{1fffe}"],
  ["U+10FFFF", "Drill\u{10ffff}"],
  ["a C0 control", "Drill\u0001"],
  ["DEL", "Drill\u007f"],
  ["a C1 control", "Drill\u0085"],
];

describe("JSON bodies", () => {
  test("bytes that are not UTF-8 are 400 'body is not valid UTF-8', not replaced and stored", async () => {
    const bytes = Buffer.concat([Buffer.from('{"name":"Caf'), Buffer.from([0xe9]), Buffer.from('","kind":"room","parentId":"' + siteId + '"}')]);
    const r = await rawPost("/locations", bytes, "application/json");
    expectProblem(r, 400, "validation_failed");
    expect(r.body.detail).toBe("body is not valid UTF-8");
    expect(r.body.errors).toEqual([{ path: "/body", message: "not valid UTF-8" }]);
    // An encoded surrogate (CESU-8) is not UTF-8 either.
    const cesu = Buffer.concat([Buffer.from('{"name":"x'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('","kind":"room","parentId":"' + siteId + '"}')]);
    expect((await rawPost("/locations", cesu, "application/json")).body.detail).toBe("body is not valid UTF-8");
    expect((await api.get("/locations", { query: { kind: "room" } })).body.total).toBe(0);
  });

  test("a lone surrogate, noncharacter or control character in any string is 400 at its JSON Pointer and stores nothing", async () => {
    for (const [what, bad] of REFUSED) {
      const top = await api.post("/locations", { name: bad, kind: "room", parentId: siteId });
      expectFieldError(top, "/body/name", what);
      expect(top.body.errors[0].message, what).toStartWith("contains ");
      // Deep inside free JSON (attributes, a draft's payload), arrays included.
      expectFieldError(await api.post("/assets", { name: "Drill", ownership: "owned", locationId: siteId, attributes: { colour: bad } }), "/body/attributes/colour", what);
      expectFieldError(await api.put("/drafts/k1", { route: "POST /assets", payload: { lines: ["ok", { note: bad }] } }), "/body/payload/lines/1/note", what);
    }
    expect((await api.get("/locations", { query: { kind: "room" } })).body.total).toBe(0);
    expect((await api.get("/owned")).body.total).toBe(0);
  });

  test("a property name holding one is 400 at the object that holds it", async () => {
    const r = await api.post("/assets", { name: "Drill", ownership: "owned", locationId: siteId, attributes: { "col\ud800": "x" } });
    expectFieldError(r, "/body/attributes");
    expect(r.body.errors[0].message).toBe("a property name contains a lone surrogate (U+D800): not valid Unicode text");
    expect((await api.get("/owned")).body.total).toBe(0);
  });

  test("the JSON text escape \\ud800 is caught after parsing, and names the character", async () => {
    const raw = `{"name":"x\\ud800y","kind":"room","parentId":"${siteId}"}`;
    const r = await rawPost("/locations", Buffer.from(raw), "application/json");
    expect(r.body.errors).toEqual([{ path: "/body/name", message: "contains a lone surrogate (U+D800): not valid Unicode text" }]);
    const nonchar = await rawPost("/locations", Buffer.from(raw.replace("\\ud800", "\\uFFFE")), "application/json");
    expect(nonchar.body.errors).toEqual([{ path: "/body/name", message: "contains U+FFFE, a Unicode noncharacter" }]);
    const control = await rawPost("/locations", Buffer.from(raw.replace("\\ud800", "\\u001b")), "application/json");
    expect(control.body.errors).toEqual([{ path: "/body/name", message: "contains the control character U+001B" }]);
  });

  test("a barcode as scanned may carry GS1's separator (U+001D) where a route reads scans, and nowhere else", async () => {
    const item = await api.seed.asset({ name: "Scanned" });
    const giai = "0614141SCAN1";
    expect((await api.post("/identifiers/issue", { itemId: item.id, scheme: "gs1_giai", value: `]d2\u001d8004${giai}` })).status).toBe(201);
    const found = await api.post("/scan/resolve", { raw: `]d2\u001d8004${giai}` });
    expect(found.status).toBe(200);
    expect(found.body.item.id).toBe(item.id);
    // Everything else still refuses it, and the scan fields refuse the rest.
    expectFieldError(await api.post("/locations", { name: "A\u001dB", kind: "room", parentId: siteId }), "/body/name");
    expect((await api.post("/scan/resolve", { raw: `8004${giai}\ufffe` })).body.errors).toEqual([{ path: "/body/raw", message: "contains U+FFFE, a Unicode noncharacter" }]);
    expect((await api.post("/scan/resolve", { raw: `8004${giai}\u001e` })).body.errors).toEqual([{ path: "/body/raw", message: "contains the control character U+001E" }]);
  });

  test("text that is fine stays fine: tab and line breaks in multi-line text, astral characters, U+FFFD", async () => {
    const item = await api.create("/assets", { name: "Bohrer 🔧 \ufffd Ä", ownership: "owned", locationId: siteId, attributes: { note: "line 1\r\n\tline 2" } });
    expect(item.name).toBe("Bohrer 🔧 \ufffd Ä");
    expect(item.attributes).toEqual({ note: "line 1\r\n\tline 2" });
  });
});

describe("query strings", () => {
  test("a value that is not UTF-8, or holds a noncharacter or control character, is 400 at /query/<name>", async () => {
    const token = await env.token("vic");
    const get = (qs: string) => env.call("GET", `/api/assets/owned?partnerId=text-in&${qs}`, { token });
    for (const [qs, message] of [
      ["q=%ED%A0%80", "not valid UTF-8"],
      ["q=Caf%E9", "not valid UTF-8"],
      ["q=Drill%EF%BF%BE", "contains U+FFFE, a Unicode noncharacter"],
      ["q=Drill%01", "contains the control character U+0001"],
      ["q=Drill%7F", "contains the control character U+007F"],
    ] as const) {
      const r = await get(qs);
      expectFieldError(r, "/query/q", qs);
      expect(r.body.errors, qs).toEqual([{ path: "/query/q", message }]);
    }
    // Also on routes whose query is not free text, and for a parameter's name.
    expectFieldError(await env.call("GET", `/api/assets/drafts/k1?partnerId=text-in&route=POST%20%2Fassets%EF%BF%BF`, { token }), "/query/route");
    expectFieldError(await env.call("GET", `/api/assets/owned?partnerId=text-in&%FF=1`, { token }), "/query");
    // Plain and properly encoded text is fine.
    expect((await get(`q=${encodeURIComponent("Bohrer Ä 🔧")}`)).status).toBe(200);
  });
});

describe("multipart", () => {
  const B = "----text-test-boundary";
  const part = (headers: string, body: Uint8Array | string) => Buffer.concat([Buffer.from(`--${B}\r\n${headers}\r\n\r\n`), Buffer.from(body), Buffer.from("\r\n")]);
  const form = (...parts: Buffer[]) => Buffer.concat([...parts, Buffer.from(`--${B}--\r\n`)]);
  const csv = (text: string) => part('Content-Disposition: form-data; name="file"; filename="a.csv"\r\nContent-Type: text/csv', text);

  test("a CSV import's text field that is not UTF-8 or holds a noncharacter is 400 at /body/<field>", async () => {
    const file = csv("name,location\nDrill,Site\n");
    const mapping = (bytes: Uint8Array) => form(file, part('Content-Disposition: form-data; name="mapping"', bytes));
    const notUtf8 = await rawPost("/imports/csv/validate", mapping(Buffer.concat([Buffer.from('{"Nam'), Buffer.from([0xe9]), Buffer.from('":"name"}')])), `multipart/form-data; boundary=${B}`, { idem: false });
    expect(notUtf8.body.errors, JSON.stringify(notUtf8.body)).toEqual([{ path: "/body/mapping", message: "not valid UTF-8" }]);
    const nonchar = await rawPost("/imports/csv/validate", mapping(Buffer.from('{"name\uffff":"name"}')), `multipart/form-data; boundary=${B}`, { idem: false });
    expect(nonchar.body.errors).toEqual([{ path: "/body/mapping", message: "contains U+FFFF, a Unicode noncharacter" }]);
    // The uploaded file's own name is text too.
    const badName = await rawPost("/imports/csv/validate", form(part('Content-Disposition: form-data; name="file"; filename="a\u{fdd0}.csv"\r\nContent-Type: text/csv', "name,location\nDrill,Site\n")), `multipart/form-data; boundary=${B}`, { idem: false });
    expect(badName.body.errors).toEqual([{ path: "/body/file", message: "file name contains U+FDD0, a Unicode noncharacter" }]);
  });

  test("an evidence file name that is not UTF-8 or holds a noncharacter is 400 at /body/file and nothing is stored", async () => {
    const item = await api.seed.asset({ name: "Evidence target" });
    const fields = [
      part('Content-Disposition: form-data; name="targetType"', "item"),
      part('Content-Disposition: form-data; name="targetId"', item.id),
      part('Content-Disposition: form-data; name="classification"', "internal"),
    ];
    const pdf = Buffer.from("%PDF-1.4\n%âãÏÓ\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n");
    const file = (name: Uint8Array) =>
      Buffer.concat([Buffer.from(`--${B}\r\nContent-Disposition: form-data; name="file"; filename="`), name, Buffer.from(`"\r\nContent-Type: application/pdf\r\n\r\n`), pdf, Buffer.from("\r\n")]);
    const send = (name: Uint8Array) => rawPost("/evidence", form(...fields, file(name)), `multipart/form-data; boundary=${B}`);
    const notUtf8 = await send(Buffer.concat([Buffer.from("note-"), Buffer.from([0xff, 0xfe]), Buffer.from(".pdf")]));
    expectProblem(notUtf8, 400, "validation_failed");
    expect(notUtf8.body.errors).toEqual([{ path: "/body", message: "part headers are not valid UTF-8" }]);
    const nonchar = await send(Buffer.from("note\ufffe.pdf"));
    expect(nonchar.body.errors).toEqual([{ path: "/body/file", message: "file name contains U+FFFE, a Unicode noncharacter" }]);
    expect((await api.get("/evidence", { query: { targetType: "item", targetId: item.id } })).body.total).toBe(0);
    // A clean name is accepted.
    expect((await send(Buffer.from("Lieferschein Ä.pdf"))).status).toBe(201);
  });

  test("a CSV cell with a noncharacter or control character is a row error at its row and column; the batch cannot be committed", async () => {
    const r = await rawPost(
      "/imports/csv/validate",
      form(csv("name,location,attributes.colour\nDrill\ufffe,Site,red\nSaw,Site,bl\u0001ue\nHammer,Site,green\n")),
      `multipart/form-data; boundary=${B}`,
      { idem: false },
    );
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.state).toBe("invalid");
    expect(r.body.errors).toContainEqual({ row: 1, column: "name", field: "name", message: "contains U+FFFE, a Unicode noncharacter" });
    expect(r.body.errors).toContainEqual({ row: 2, column: "attributes.colour", field: "attributes.colour", message: "contains the control character U+0001" });
    expect(r.body.rows.map((x: { status: string }) => x.status)).toEqual(["invalid", "invalid", "valid"]);
    expectProblem(await api.post(`/imports/${r.body.id}/commit`, {}), 409, "state_conflict");
  });
});

describe("every export's sources refuse what would break it", () => {
  test("UBL and XBRL GL (XML 1.0): a book name with U+FFFF; EPCIS: a move reason with U+FFFE; iCalendar: a meeting title with DEL or U+FFFE, a work description with U+FDEF", async () => {
    expectFieldError(await api.post("/finance/books", { name: "Main \uffff", functionalCurrency: "EUR", policyId: Bun.randomUUIDv7() }), "/body/name", "book");
    const item = await api.seed.activeAsset({ name: "Mover" });
    const other = await api.seed.location({ name: "Other", kind: "site" });
    expectFieldError(await api.post(`/items/${item.id}/move`, { toLocationId: other.id, reason: "moved\ufffe" }), "/body/reason", "move");
    const project = await planning.create("/projects", { name: "Launch", timeZone: "Europe/Berlin" });
    const meeting = { startsAt: "2027-01-01T10:00:00Z", endsAt: "2027-01-01T11:00:00Z" };
    expectFieldError(await planning.post(`/projects/${project.id}/meetings`, { title: "Sync\u007f", ...meeting }), "/body/title", "meeting DEL");
    expectFieldError(await planning.post(`/projects/${project.id}/meetings`, { title: "Sync\ufffe", ...meeting }), "/body/title", "meeting U+FFFE");
    expectFieldError(await planning.post(`/projects/${project.id}/work`, { title: "Stage", description: "build\ufdef" }), "/body/description", "work");
    // Nothing reached the calendar.
    const ics = await planning.get(`/projects/${project.id}/meetings`);
    expect(ics.body.total).toBe(0);
  });
});

describe("q with nothing to search for", () => {
  test("word searches answer 400 at /query/q instead of dropping the filter", async () => {
    const token = await env.token("vic");
    for (const path of ["/owned", "/loaned", "/locations", "/parties", "/audits", "/work-orders", "/search", "/settings/records?recordType=location", "/settings/records?recordType=party"]) {
      const sep = path.includes("?") ? "&" : "?";
      const r = await env.call("GET", `/api/assets${path}${sep}partnerId=text-in&q=${encodeURIComponent("!! -- *")}`, { token });
      expectFieldError(r, "/query/q", path);
      expect(r.body.errors, path).toEqual([{ path: "/query/q", message: "q has no letters or digits to search for" }]);
    }
  });

  test("prefix filters keep punctuation as text, and blank q is still no filter", async () => {
    const token = await env.token("vic");
    for (const path of ["/hub/tasks", "/agreements", "/settings/records?recordType=catalog"]) {
      const sep = path.includes("?") ? "&" : "?";
      const r = await env.call("GET", `/api/assets${path}${sep}partnerId=text-in&q=${encodeURIComponent("!!")}`, { token });
      expect(r.status, `${path} ${JSON.stringify(r.body)}`).toBe(200);
    }
    const blank = await env.call("GET", `/api/assets/owned?partnerId=text-in&q=%20%20`, { token });
    expect(blank.status).toBe(200);
    expect(blank.body.filters).toEqual({});
  });

  test("the document says so", async () => {
    const doc = (await env.call("GET", "/api/assets/openapi.json")).body;
    const q = doc.paths["/owned"].get.parameters.find((p: { name: string }) => p.name === "q");
    expect(q.description).toContain("400");
    expect(q.description).toContain("no letters or digits");
  });
});
