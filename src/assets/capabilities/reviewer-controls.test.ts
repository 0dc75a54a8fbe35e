// Reviewer controls as a dashboard builds them (spec, Authentication 5: "dashboard
// reviewer controls also exclude the current maker"). Each record a second person
// decides tells the caller whether they may decide it (`canDecide`), and the
// reviewer picker lists eligible members without the record's maker
// (`GET /eligible-users?capability=…&excludeMakerOf=<type>:<id>`): a disposal proposed
// by a manager, a custody policy authored by an admin, stock-take discrepancies
// counted by two members, and a delivery note uploaded by a manager.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { MutableClock } from "../../../test/harness.ts";
import { expectFieldError, expectProblem } from "../../../test/contract/helpers.ts";
import { partnerKit } from "../../../test/kit.ts";

const clock = new MutableClock(new Date("2026-06-01T08:00:00.000Z"));
const api = await partnerKit({
  clock,
  tickMs: 1000,
  users: { ada: "admin", chief: "admin", mgr: "manager", mia: "manager", op: "operator", vic: "viewer" },
});
afterAll(() => api.close());

const eligible = (user: string, capability: string, excludeMakerOf?: string) =>
  api.as(user).get("/eligible-users", { query: { capability, ...(excludeMakerOf ? { excludeMakerOf } : {}) } });
const userIds = (res: { body: { items: Array<{ userId: string }> } }) => res.body.items.map((u) => u.userId);
/** The `canDecide` each listed user sees on a record read through `read`. */
async function canDecideBy(users: string[], read: (user: string) => Promise<{ status: number; body: any }>): Promise<Record<string, boolean>> {
  const out: Record<string, boolean> = {};
  for (const u of users) {
    const res = await read(u);
    expect(res.status, `${u}: ${JSON.stringify(res.body)}`).toBe(200);
    out[u] = res.body.canDecide;
  }
  return out;
}

// ------------------------------------------------------------------ evidence upload (multipart)

const BOUNDARY = "----reviewer-controls-boundary";
async function upload(user: string, fields: Record<string, string>) {
  const pdf = Buffer.from(`%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n% delivery note ${Math.random()}\n%%EOF\n`);
  const parts = [
    ...Object.entries(fields).map(([k, v]) => Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)),
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="note.pdf"\r\nContent-Type: application/pdf\r\n\r\n`),
    pdf,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ];
  const res = await api.env.app.fetch(
    new Request(`http://test.local${api.url("/evidence")}`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${await api.env.token(user)}`,
        "idempotency-key": `up-${Math.random().toString(36).slice(2)}`,
        "content-type": `multipart/form-data; boundary=${BOUNDARY}`,
      },
      body: Buffer.concat(parts),
    }),
  );
  return { status: res.status, body: (await res.json()) as any };
}

let itemId = "";
beforeAll(async () => {
  itemId = (await api.seed.activeAsset({ name: "Projector" })).id;
});

describe("a workflow case proposed by a manager", () => {
  let caseId = "";

  test("only a reviewer who is not the maker may decide it, and only while it is pending", async () => {
    const created = await api.as("mgr").post("/workflow-cases", { type: "lifecycle_disposition", operation: { itemId, action: "retire" } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    caseId = created.body.id;
    expect(created.body.canDecide).toBe(false);

    const read = (u: string) => api.as(u).get(`/workflow-cases/${caseId}`);
    expect(await canDecideBy(["mgr", "mia", "ada", "chief"], read)).toEqual({ mgr: false, mia: true, ada: true, chief: true });
    // Lists carry it too.
    const listed = async (u: string) => (await api.as(u).get("/workflow-cases")).body.items.find((c: any) => c.id === caseId).canDecide;
    expect([await listed("mgr"), await listed("mia")]).toEqual([false, true]);
  });

  test("the reviewer picker leaves out the maker; a case the caller cannot see is 404", async () => {
    expect(userIds(await eligible("mia", "ams_review"))).toEqual(["ada", "chief", "mgr", "mia"]);
    const picker = await eligible("mia", "ams_review", `workflow_case:${caseId}`);
    expect(picker.status).toBe(200);
    expect(userIds(picker)).toEqual(["ada", "chief", "mia"]);
    // The maker asking gets the same list without themselves.
    expect(userIds(await eligible("mgr", "ams_review", `workflow_case:${caseId}`))).toEqual(["ada", "chief", "mia"]);
    // An operator sees only their own cases: this one does not exist for them.
    expectProblem(await eligible("op", "ams_review", `workflow_case:${caseId}`), 404, "not_found");
  });

  test("once decided, nobody may decide it", async () => {
    const decided = await api.as("mia").post(`/workflow-cases/${caseId}/decision`, { decision: "reject", reason: "still in use", expectedVersion: 1 });
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    expect(decided.body.canDecide).toBe(false);
    expect(await canDecideBy(["mia", "ada"], (u) => api.as(u).get(`/workflow-cases/${caseId}`))).toEqual({ mia: false, ada: false });
  });
});

describe("a custody policy authored by an admin", () => {
  let policyId = "";
  const read = (u: string) => api.as(u).get(`/policies/${policyId}`);

  test("a draft is nobody's to decide; under review, another policy approver may decide it", async () => {
    const created = await api.as("chief").post("/policies", {
      type: "custody",
      document: { maxCheckoutDays: 30, acknowledgementRequired: true, overdueEscalationDays: 7 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    policyId = created.body.id;
    expect(created.body.canDecide).toBe(false);
    expect(await canDecideBy(["chief", "ada"], read)).toEqual({ chief: false, ada: false });

    const submitted = await api.as("chief").post(`/policies/${policyId}/submit`, { revision: 1 });
    expect(submitted.status).toBe(200);
    expect(submitted.body.canDecide).toBe(false);
    // mgr may author policies but not approve them.
    expect(await canDecideBy(["chief", "ada", "mgr", "vic"], read)).toEqual({ chief: false, ada: true, mgr: false, vic: false });
    const listed = (await api.as("ada").get("/policies", { query: { state: "in_review" } })).body.items;
    expect(listed.map((p: any) => [p.id, p.canDecide])).toEqual([[policyId, true]]);
  });

  test("the approver picker leaves out the author", async () => {
    expect(userIds(await eligible("vic", "policy_approve"))).toEqual(["ada", "chief"]);
    expect(userIds(await eligible("vic", "policy_approve", `policy:${policyId}`))).toEqual(["ada"]);
  });

  test("an active policy is nobody's to decide", async () => {
    const approved = await api.as("ada").post(`/policies/${policyId}/decision`, { decision: "approve", reason: "agreed with HR", expectedRevision: 1 });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.canDecide).toBe(false);
    expect(await canDecideBy(["ada"], read)).toEqual({ ada: false });
  });
});

describe("stock-take discrepancies", () => {
  const ids = { audit: "", movedResult: "", missingResult: "" };
  const results = async (u: string) => {
    const res = await api.as(u).get(`/audits/${ids.audit}/results`);
    expect(res.status).toBe(200);
    return Object.fromEntries(res.body.items.map((r: any) => [r.id, r.canDecide]));
  };

  test("while counting nobody may review; in review, everyone with ams_review except the item's counters", async () => {
    const site = (await api.seed.location({ name: "Depot", kind: "site" })).id;
    const room = (await api.seed.location({ name: "Store A", kind: "room", parentId: site })).id;
    const other = (await api.seed.location({ name: "Store B", kind: "room", parentId: site })).id;
    const drill = (await api.seed.activeAsset({ name: "Drill", locationId: room })).id;
    await api.seed.activeAsset({ name: "Ladder", locationId: room });
    ids.audit = (await api.create("/audits", { name: "Depot count", locationIds: [site] })).id;
    expect((await api.post(`/audits/${ids.audit}/start`, {})).status).toBe(200);
    // Two members count the drill in the wrong room; nobody finds the ladder.
    const counted = await api.as("op").post(`/audits/${ids.audit}/counts`, { entries: [{ itemId: drill, locationId: other }] });
    expect(counted.status, JSON.stringify(counted.body)).toBe(200);
    ids.movedResult = counted.body.entries[0].resultId;
    expect((await api.as("mgr").post(`/audits/${ids.audit}/counts`, { entries: [{ itemId: drill, locationId: other }] })).status).toBe(200);
    expect((await results("mia"))[ids.movedResult]).toBe(false);

    expect((await api.post(`/audits/${ids.audit}/close-counting`, {})).status).toBe(200);
    const asMia = await results("mia");
    ids.missingResult = Object.keys(asMia).find((id) => id !== ids.movedResult)!;
    expect(asMia).toEqual({ [ids.movedResult]: true, [ids.missingResult]: true });
    // mgr counted the drill, op counted it and cannot review anyway.
    expect(await results("mgr")).toEqual({ [ids.movedResult]: false, [ids.missingResult]: true });
    expect(await results("op")).toEqual({ [ids.movedResult]: false, [ids.missingResult]: false });
  });

  test("the reviewer picker leaves out every counter of the item", async () => {
    expect(userIds(await eligible("mia", "ams_review", `audit_result:${ids.movedResult}`))).toEqual(["ada", "chief", "mia"]);
    expect(userIds(await eligible("mia", "ams_review", `audit_result:${ids.missingResult}`))).toEqual(["ada", "chief", "mgr", "mia"]);
  });

  test("a reviewed result may be reviewed again until the audit is posted", async () => {
    const reviewed = await api.as("mia").post(`/audits/${ids.audit}/results/${ids.movedResult}/review`, { decision: "reject", reason: "recount" });
    expect(reviewed.status, JSON.stringify(reviewed.body)).toBe(200);
    expect(reviewed.body.canDecide).toBe(true);
    expect((await api.as("mia").post(`/audits/${ids.audit}/results/${ids.missingResult}/review`, { decision: "reject", reason: "recount" })).status).toBe(200);
    expect((await api.as("mia").post(`/audits/${ids.audit}/post`, {})).status).toBe(200);
    expect(await results("mia")).toEqual({ [ids.movedResult]: false, [ids.missingResult]: false });
  });
});

describe("a delivery note uploaded by a manager", () => {
  let evidenceId = "";
  const listed = async (u: string) => {
    const res = await api.as(u).get("/evidence", { query: { targetId: itemId } });
    expect(res.status).toBe(200);
    return { status: 200, body: res.body.items.find((e: any) => e.id === evidenceId) };
  };

  test("pending evidence is for a reviewer other than the uploader", async () => {
    const up = await upload("mgr", { targetType: "item", targetId: itemId, classification: "internal" });
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    evidenceId = up.body.id;
    expect(up.body.canDecide).toBe(false);
    expect(await canDecideBy(["mgr", "mia", "op", "vic"], listed)).toEqual({ mgr: false, mia: true, op: false, vic: false });
  });

  test("the reviewer picker leaves out the uploader", async () => {
    expect(userIds(await eligible("op", "ams_review", `evidence:${evidenceId}`))).toEqual(["ada", "chief", "mia"]);
  });

  test("reviewed evidence is nobody's to decide", async () => {
    const reviewed = await api.as("mia").post(`/evidence/${evidenceId}/review`, { decision: "quarantine", reason: "wrong supplier" });
    expect(reviewed.status, JSON.stringify(reviewed.body)).toBe(200);
    expect(reviewed.body.canDecide).toBe(false);
    expect(await canDecideBy(["mia", "ada"], listed)).toEqual({ mia: false, ada: false });
  });

  test("restricted evidence does not exist for the picker of a member without ams_admin", async () => {
    const secret = await upload("ada", { targetType: "item", targetId: itemId, classification: "restricted" });
    expect(secret.status, JSON.stringify(secret.body)).toBe(201);
    expectProblem(await eligible("mia", "ams_review", `evidence:${secret.body.id}`), 404, "not_found");
    expect(userIds(await eligible("chief", "ams_review", `evidence:${secret.body.id}`))).toEqual(["chief", "mgr", "mia"]);
  });
});

describe("excludeMakerOf names one record", () => {
  test("a malformed reference is 400 at /query/excludeMakerOf", async () => {
    const id = api.env.deps.newId();
    for (const bad of ["workflow_case", `teleport:${id}`, "policy:not-an-id", `Policy:${id}`, `policy:${id}:x`]) {
      expectFieldError(await eligible("ada", "ams_review", bad), "/query/excludeMakerOf", bad);
    }
  });

  test("the published operation documents the parameter and its 404", async () => {
    const op = (await api.env.call("GET", "/api/assets/openapi.json")).body.paths["/eligible-users"].get;
    const param = op.parameters.find((p: any) => p.name === "excludeMakerOf");
    expect(param).toMatchObject({ in: "query", required: false });
    expect(param.schema.pattern).toContain("workflow_case|policy|audit_result|evidence");
    expect(Object.keys(op.responses)).toContain("404");
    for (const schema of ["WorkflowCase", "Policy", "AuditResult", "Evidence"]) {
      const doc = (await api.env.call("GET", "/api/assets/openapi.json")).body;
      expect(doc.components.schemas[schema].properties.canDecide, schema).toMatchObject({ type: "boolean" });
      expect(doc.components.schemas[schema].required, schema).toContain("canDecide");
    }
  });

  test("a record that does not exist is 404", async () => {
    for (const type of ["workflow_case", "policy", "audit_result", "evidence"]) {
      expectProblem(await eligible("ada", "ams_review", `${type}:${api.env.deps.newId()}`), 404, "not_found", type);
    }
  });
});
