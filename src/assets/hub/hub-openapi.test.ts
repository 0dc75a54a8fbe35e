// The hub in the published document: every hub operation with its request and
// response schemas, and the projections the spec calls strict published as closed
// objects (additionalProperties false), so clients can rely on their exact shape.
import { test, expect, afterAll, describe } from "bun:test";
import { createTestEnv } from "../../../test/harness.ts";
import { routes } from "./routes.ts";

const env = await createTestEnv();
afterAll(() => env.close());

type Schema = { $ref?: string; type?: string; properties?: Record<string, Schema>; additionalProperties?: boolean; oneOf?: Schema[]; anyOf?: Schema[]; required?: string[] };
type Op = {
  operationId: string;
  parameters?: Array<{ name: string; in: string }>;
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }>; headers?: Record<string, unknown> }>;
};
const doc = (await env.call("GET", "/api/assets/openapi.json")).body as { paths: Record<string, Record<string, Op>>; components: { schemas: Record<string, Schema> } };
const resolve = (s: Schema): Schema => (s.$ref ? resolve(doc.components.schemas[s.$ref.split("/").at(-1)!]!) : s);

describe("the hub in the OpenAPI document", () => {
  test("every hub route is published with its body, query and success response schemas", () => {
    expect(routes.length).toBe(19);
    for (const r of routes) {
      const op = doc.paths[r.path]?.[r.method];
      expect(op?.operationId, `${r.method} ${r.path}`).toBe(r.operationId);
      const success = Object.keys(r.responses)[0]!;
      const schema = op!.responses[success]?.content?.["application/json"]?.schema;
      expect(schema, `${r.operationId} ${success}`).toBeDefined();
      expect(resolve(schema!).type ?? (resolve(schema!).oneOf ? "oneOf" : undefined), r.operationId).toBeDefined();
      if (r.body) expect(op!.requestBody?.content["application/json"]?.schema, r.operationId).toBeDefined();
      if (r.method === "post" && success === "201") expect(op!.responses["201"]!.headers?.Location, r.operationId).toBeDefined();
      if (r.query) for (const key of Object.keys(r.query.shape)) expect(op!.parameters?.map((p) => p.name), r.operationId).toContain(key);
      for (const status of ["400", "401", "403", "500"]) expect(Object.keys(op!.responses), r.operationId).toContain(status);
      if (r.method === "post") expect(Object.keys(op!.responses), r.operationId).toContain("409");
    }
    // The spec's suffix routes, under their contract §8 parents.
    for (const path of ["/hub/tasks/{id}/advance", "/hub/dock-appointments/{id}/transition", "/hub/quality-holds/{id}/resolve", "/hub/continuity-runs/{id}/complete"]) {
      expect(doc.paths[path]?.post, path).toBeDefined();
    }
  });

  test("hub tasks, the summary and every hub record projection are closed objects", () => {
    const strict = [
      "HubTask",
      "HubTaskDetail",
      "HubTaskEvent",
      "HubTaskItemLine",
      "HubTaskQuantityLine",
      "HubSummary",
      "HubOverview",
      "DockAppointment",
      "QualityHold",
      "ReplenishmentRule",
      "ReplenishmentEvaluation",
      "ContinuityRun",
      "HubAppointmentRecord",
      "HubHoldRecord",
      "HubRuleRecord",
      "HubContinuityRecord",
      "HubAppointmentRecordDetail",
      "HubHoldRecordDetail",
      "HubRuleRecordDetail",
      "HubContinuityRecordDetail",
      "HubRecordEvent",
    ];
    for (const name of strict) {
      const s = doc.components.schemas[name];
      expect(s, name).toBeDefined();
      expect(s!.additionalProperties, name).toBe(false);
    }
    expect(Object.keys(doc.components.schemas.HubSummary!.properties!).sort()).toEqual(
      ["receiving", "putaway", "picking", "packing", "replenishment", "quality", "dock", "continuity", "openTasks", "unassigned", "urgentUnassigned", "asOf"].sort(),
    );
    expect(doc.components.schemas.HubRecord!.oneOf).toHaveLength(4);
    expect(Object.keys(doc.components.schemas.HubTaskList!.properties!)).toContain("tasks");
    expect(Object.keys(doc.components.schemas.HubRecordList!.properties!)).toContain("records");
  });
});
