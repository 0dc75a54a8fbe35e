// Builds the references' specs from the service (./capture.ts): each list's page and
// count statements and each write's statements, captured by running one request (two
// for a write) through the real app on the bench's data.
import { captureRequest, listSpecOf, writeSpecOf, type Fetcher, type WriteSpec } from "./capture.ts";
import type { DTO_FIELDS, ListReference } from "./reference.ts";

export interface ListScenarioDef {
  /** Service path with its query, e.g. /api/assets/owned?partnerId=p00&limit=50&condition=new */
  path: string;
  partnerId: string;
  dto: keyof typeof DTO_FIELDS;
}

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/** The cursor binding inside a service cursor ("<base64url JSON {b,t,i}>.<mac>"). */
export function bindingOfCursor(cursor: string | null): string {
  if (!cursor) return "";
  const body = JSON.parse(Buffer.from(cursor.slice(0, cursor.indexOf(".")), "base64url").toString("utf8")) as { b: string };
  return body.b;
}

/** A list's reference, captured from one request that misses the count memo. */
export async function listReferenceOf(app: Fetcher, origin: string, token: string, def: ListScenarioDef): Promise<ListReference> {
  const captured = await captureRequest(app, new Request(origin + def.path, { headers: auth(token) }), def.partnerId);
  const spec = listSpecOf(captured);
  const page = JSON.parse(captured.body) as { limit: number; filters: unknown; nextCursor: string | null };
  return { partnerId: def.partnerId, spec, dto: def.dto, limit: page.limit, filtersJson: JSON.stringify(page.filters), binding: bindingOfCursor(page.nextCursor) };
}

export interface WriteScenarioDef {
  /** Service path without the query, e.g. /api/assets/assets */
  path: string;
  partners: string[];
  /** The request body for a partner and a unique tag. */
  body: (partnerId: string, tag: string) => string;
}

/** A write's reference per partner, from two captured requests each (they add two rows per partner). */
export async function writeReferenceOf(app: Fetcher, origin: string, token: string, def: WriteScenarioDef, run: string): Promise<Record<string, WriteSpec>> {
  const out: Record<string, WriteSpec> = {};
  for (const partnerId of def.partners) {
    const send = async (n: string) => {
      const t = { key: `capture-${run}-${partnerId}-${n}`, tag: `cap${run}${n}` };
      const req = new Request(`${origin}${def.path}?partnerId=${partnerId}`, {
        method: "POST",
        headers: { ...auth(token), "content-type": "application/json", "idempotency-key": t.key, "x-bench-tag": t.tag },
        body: def.body(partnerId, t.tag),
      });
      return { c: await captureRequest(app, req, partnerId), t };
    };
    const a = await send("a");
    const b = await send("b");
    out[partnerId] = writeSpecOf(a.c, a.t, b.c, b.t);
  }
  return out;
}

const UUID_G = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const ISO_G = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/g;

/** A body with the request's time (asOf) blanked, to compare a service answer with its reference's. */
export function withoutTime(body: string): string {
  return body.replace(/"asOf":"[^"]*"/, '"asOf":""');
}

/** A write's answer with generated ids and times blanked. */
export function withoutIdsAndTimes(body: string): string {
  return body.replace(UUID_G, "<id>").replace(ISO_G, "<time>");
}
