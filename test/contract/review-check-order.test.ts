// Contract §5 on the review routes: the capability check answers before the record
// is looked up. A member holding none of a review route's capabilities who names a
// record that does not exist gets 403 capability_denied, never 404 (which would tell
// them whether the id exists); a member holding it gets the 404 for the same request,
// which proves the id really is missing. Assets: workflow-case decisions (any of the
// types' decide capabilities), policy decisions, audit result review and posting,
// evidence review. Planning: change-set review and apply, artifact review.
import { afterAll, describe, expect, test } from "bun:test";
import { expectProblem } from "./helpers.ts";
import { partnerKit } from "../kit.ts";

const api = await partnerKit({ users: { admin: "admin", mgr: "manager", op: "operator", viewer: "viewer", fin: "operator" } });
afterAll(() => api.close());
const ghost = () => api.env.deps.newId();

interface Case {
  name: string;
  family: "assets" | "planning";
  path: () => string;
  body: unknown;
  /** Members without the route's capability. */
  without: string[];
  /** A member with it. */
  holder: string;
}

const CASES: Case[] = [
  {
    name: "POST /workflow-cases/{id}/decision",
    family: "assets",
    path: () => `/workflow-cases/${ghost()}/decision`,
    body: { decision: "approve", reason: "looks right", expectedVersion: 1 },
    without: ["op", "viewer"],
    holder: "mgr",
  },
  {
    name: "POST /policies/{id}/decision",
    family: "assets",
    path: () => `/policies/${ghost()}/decision`,
    body: { decision: "approve", reason: "looks right", expectedRevision: 1 },
    without: ["mgr", "op", "viewer"],
    holder: "admin",
  },
  {
    name: "POST /audits/{id}/results/{resultId}/review",
    family: "assets",
    path: () => `/audits/${ghost()}/results/${ghost()}/review`,
    body: { decision: "accept", reason: "found on the shelf" },
    without: ["op", "viewer"],
    holder: "mgr",
  },
  {
    name: "POST /audits/{id}/post",
    family: "assets",
    path: () => `/audits/${ghost()}/post`,
    body: {},
    without: ["op", "viewer"],
    holder: "mgr",
  },
  {
    name: "POST /evidence/{id}/review",
    family: "assets",
    path: () => `/evidence/${ghost()}/review`,
    body: { decision: "quarantine" },
    without: ["op", "viewer"],
    holder: "mgr",
  },
  {
    name: "POST /projects/{projectId}/change-sets/{changeSetId}/review",
    family: "planning",
    path: () => `/projects/${ghost()}/change-sets/${ghost()}/review`,
    body: { decision: "approve", reason: "looks right" },
    without: ["op", "viewer"],
    holder: "mgr",
  },
  {
    name: "POST /projects/{projectId}/change-sets/{changeSetId}/apply",
    family: "planning",
    path: () => `/projects/${ghost()}/change-sets/${ghost()}/apply`,
    body: {},
    without: ["mgr", "op", "viewer"],
    holder: "admin",
  },
  {
    name: "POST /artifacts/{artifactId}/review",
    family: "planning",
    path: () => `/artifacts/${ghost()}/review`,
    body: { decision: "quarantine" },
    without: ["op", "viewer"],
    holder: "mgr",
  },
];

const send = async (c: Case, user: string) =>
  api.env.call("POST", `/api/${c.family}${c.path()}?partnerId=${api.partnerId}`, { token: await api.env.token(user), body: c.body });

describe("a reviewer route asked about a record that does not exist", () => {
  for (const c of CASES) {
    test(`${c.name}: 403 capability_denied without the capability, 404 with it`, async () => {
      for (const user of c.without) expectProblem(await send(c, user), 403, "capability_denied", `${c.name} as ${user}`);
      expectProblem(await send(c, c.holder), 404, "not_found", `${c.name} as ${c.holder}`);
    });
  }
});

describe("workflow cases: the route needs any of the types' capabilities", () => {
  test("a member holding only finance_approve passes the route's check; the case's own type is checked after it is read", async () => {
    // fin is an operator granted finance_approve: no ams_review, so the asset types' cases are not theirs to see.
    const grant = await api.put("/capabilities/finance_approve", { roleDefaults: ["admin", "owner"], grants: [{ userId: "fin", expiresAt: null }] });
    expect(grant.status, JSON.stringify(grant.body)).toBe(200);
    const decide = (user: string, id: string) =>
      api.as(user).post(`/workflow-cases/${id}/decision`, { decision: "reject", reason: "not needed", expectedVersion: 1 });
    expectProblem(await decide("fin", ghost()), 404, "not_found");
    const item = await api.seed.activeAsset();
    const proposed = await api.as("op").create("/workflow-cases", { type: "lifecycle_disposition", operation: { itemId: item.id, action: "retire" } });
    // A case of a type fin may not decide is not visible to fin (contract §3): 404, as for a read.
    expectProblem(await decide("fin", proposed.id), 404, "not_found");
    expectProblem(await api.as("fin").get(`/workflow-cases/${proposed.id}`), 404, "not_found");
    // The maker without any decide capability stops at the route's capability check.
    expectProblem(await decide("op", proposed.id), 403, "capability_denied");
    expect((await decide("mgr", proposed.id)).status).toBe(200);
  });

  test("proposing: a member with none of the propose capabilities gets 403 before the body is read", async () => {
    expectProblem(await api.as("viewer").post("/workflow-cases", { type: "teleport", operation: {} }), 403, "capability_denied");
    const noType = await api.as("op").post("/workflow-cases", { type: "teleport", operation: {} });
    expectProblem(noType, 400, "validation_failed");
  });

  test("the published operation names every capability that passes the route's check", async () => {
    const doc = (await api.env.call("GET", "/api/assets/openapi.json")).body;
    expect(doc.paths["/workflow-cases/{id}/decision"].post["x-capability"]).toEqual(["ams_review", "finance_approve"]);
    expect(doc.paths["/workflow-cases"].post["x-capability"]).toEqual(["ams_operate", "finance_propose"]);
    expect(doc.paths["/workflow-cases"].get["x-capability"]).toBe("ams_view");
    expect(doc.paths["/policies/{id}/decision"].post["x-capability"]).toBe("policy_approve");
  });
});
