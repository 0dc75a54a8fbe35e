// The world: one of every record of both families, seeded for a partner through the
// real API (env.call with real tokens; jobs through runJob, as the scheduler runs
// them), and a map from every path parameter of every route to a real id. The
// hardening suites (isolation, fuzz) read routes from the registry and fill their
// paths from here, so a new route is covered the day it is added: a route whose
// parameter the world cannot fill fails `unfilledParams()` unless it is listed in
// UNFILLABLE with its reason (coverage cannot shrink silently).
//
// What it seeds (about 190 requests; ~0.6 s on bun:sqlite, a few seconds on libSQL):
// - members `w-viewer` … `w-owner` (the same ids in every world, so in one env each is a
//   member of every world's partner), `w-checker` (admin: decides what the owner proposed)
//   and `w-outsider` (operator: leads the hidden project only);
// - AMS: locations, party, agreement (ending soon: an alert), catalogue, items in every state a
//   route acts on (active, planned, checked out, reserved, packed, in a work order, on hold,
//   disposed, quantity-tracked), identifier, checkout, reservation, shipment with containers,
//   movements, audit with a result, work order, hub task and companion records, webhook (when
//   the env has AMS_WEBHOOK_ENCRYPTION_KEY), policies, a finance book with periods (one closed),
//   value entry, depreciation and component profiles, insurance policy, journal batch, budget,
//   workflow cases (the owner's, the operator's), interop job, CSV import batch, evidence (clean,
//   pending, restricted), saved views and drafts (the owner's and the admin's);
// - planning: a project the five role users are in, with one record of every collection,
//   dependency, agenda and minutes, a linked canonical event and tier, resource link, change set,
//   artifacts (clean, pending, restricted), calendar feed, destination, an SMS device with a
//   leased job, and a notification outbox attempt; and the hidden project with its own records
//   (`ids["hidden.<kind>"]`), destination and device.
// Ids are by kind in `ids`; `bodyFor` builds a body its schema accepts from them (by field name),
// `queryFor` the required query values, `formFor` the multipart uploads; snapshotTables digests
// a partner's tables for "nothing changed" checks.
import { allRoutes } from "../src/routes.ts";
import type { AnyRoute } from "../src/platform/http/define-route.ts";
import { ROLES, type Role } from "../src/platform/auth/capabilities.ts";
import { upsertMember } from "../src/platform/tenancy/members.ts";
import { runJob } from "../src/jobs/run-job.ts";
import { alertsJob } from "../src/jobs/alerts.job.ts";
import { interopExportsJob } from "../src/jobs/interop-exports.job.ts";
import { remindersJob } from "../src/jobs/reminders.job.ts";
import { evidenceScanJob } from "../src/jobs/evidence-scan.job.ts";
import { z } from "zod";
import type { CallResult, TestEnv } from "./harness.ts";
import { changedTables as rowsChanged, tableDigest, type TableSnapshot } from "./hardening/table-digest.ts";

export interface World {
  partnerId: string;
  /** Members by role (viewer, operator, manager, admin, owner), all leads/members of projectId. */
  users: Record<Role, string>;
  projectId: string;
  /** A planning project of this partner the `viewer`…`owner` users are NOT members of, with records in it. */
  hiddenProjectId: string;
  /** A real id for a path parameter of a route (by route and parameter name), or undefined. */
  idFor(route: AnyRoute, param: string): string | undefined;
  /** The route's family-relative path with every parameter filled, or undefined when one is missing. */
  pathFor(route: AnyRoute): string | undefined;
  /** Ids the world created, by kind (item, checkout, shipment, container, …), for bodies that name records. */
  ids: Record<string, string>;
  /** Real values for the route's required query parameters (a draft's `route`, a dependency's ends, a book), beyond `partnerId`. */
  queryFor(route: AnyRoute): Record<string, string>;
  /**
   * A body for the route that its schema accepts, naming this world's records (by field name:
   * `itemId` → an item, `bookId` → the book, …), so a request reaches the route's logic; undefined
   * for routes without a JSON body. `idFields` lists the JSON Pointers that hold record ids.
   */
  bodyFor(route: AnyRoute): { body: unknown; idFields: Array<{ pointer: string; kind: string }> } | undefined;
  /** A multipart form for a route that streams its body (uploads), naming this world's records; undefined otherwise. */
  formFor(route: AnyRoute): { rawBody: string; headers: Record<string, string> } | undefined;
  /** The SMS gateway device's bearer token (device routes), or undefined. */
  deviceToken?: string;
  /** Extra members: `checker` (admin, decides what the world's makers proposed), `outsider` (operator, lead of the hidden project only). */
  extraUsers: { checker: string; outsider: string };
}

/** Member ids are the same in every world, so in one env each is a member of every world's partner (same role). */
export const WORLD_USERS: Record<Role, string> = {
  viewer: "w-viewer",
  operator: "w-operator",
  manager: "w-manager",
  admin: "w-admin",
  owner: "w-owner",
};
export const WORLD_CHECKER = "w-checker";
export const WORLD_OUTSIDER = "w-outsider";

/**
 * Path parameters the world cannot fill, by `operationId.param`, each with its reason. The suites
 * skip these with the reason printed; anything else unfilled fails them.
 */
export const UNFILLABLE: Record<string, string> = {};

/** Path parameters that are not record ids: fixed values that make the request meaningful. */
const FIXED: Record<string, string> = {
  "replaceCapability.key": "hub_assignee",
  "runMyReminderChannelAction.channel": "messenger_b_dm",
  "runMyReminderChannelAction.action": "preference",
};

/**
 * Parameters whose record is not the path's resource (the route's description says which), or
 * needs a state the route acts on (a pending file to review, a clean one to read), by `operationId.param`.
 */
const OVERRIDES: Record<string, string> = {
  "runDepreciation.id": "book",
  "replaceFinanceComponent.id": "componentProfile",
  "completeFinanceDisposal.id": "disposedItem",
  "reviewEvidence.id": "pendingEvidence",
  "reviewArtifact.artifactId": "pendingArtifact",
};

/** The kind of record an `{id}` names, by the path's resource (longest prefix first). */
const ID_BY_PREFIX: Array<[string, string]> = [
  ["/saved-views/", "savedView"],
  ["/locations/", "location"],
  ["/parties/", "party"],
  ["/agreements/", "agreement"],
  ["/catalog/categories/", "category"],
  ["/catalog/models/", "model"],
  ["/items/", "item"],
  ["/identifiers/", "identifier"],
  ["/reservations/", "reservation"],
  ["/checkouts/", "checkout"],
  ["/shipments/", "shipment"],
  ["/containers/", "container"],
  ["/movements/", "movement"],
  ["/audits/", "audit"],
  ["/work-orders/", "workOrder"],
  ["/hub/records/", "hubRecord"],
  ["/hub/tasks/", "hubTask"],
  ["/hub/dock-appointments/", "dockAppointment"],
  ["/hub/quality-holds/", "qualityHold"],
  ["/hub/replenishment-rules/", "replenishmentRule"],
  ["/hub/continuity-runs/", "continuityRun"],
  ["/alerts/", "alert"],
  ["/webhooks/", "webhook"],
  ["/workflow-cases/", "workflowCase"],
  ["/finance/value-entries/", "valueEntry"],
  ["/finance/periods/", "period"],
  ["/finance/depreciation/", "depreciationProfile"],
  ["/finance/insurance/policies/", "insurancePolicy"],
  ["/finance/journal-batches/", "journalBatch"],
  ["/finance/books/", "book"],
  ["/finance/budgets/", "budget"],
  ["/policies/", "policy"],
  ["/interoperability/jobs/", "interopJob"],
  ["/imports/", "importBatch"],
  ["/evidence/", "evidence"],
];

/** Named parameters (not `id`) and the kind they name. */
const PARAM_KINDS: Record<string, string> = {
  projectId: "project",
  changeSetId: "changeSet",
  meetingId: "meeting",
  artifactId: "artifact",
  destinationId: "destination",
  outboxId: "outbox",
  deviceId: "device",
  jobId: "smsJob",
  workflowKey: "draftKey",
  resultId: "auditResult",
  feedToken: "feedToken",
};

/** A planning collection's path segment → the kind of its records. */
const COLLECTION_KINDS: Record<string, string> = {
  departments: "department",
  calendars: "calendar",
  work: "work",
  requirements: "requirement",
  meetings: "meeting",
  risks: "risk",
  gates: "gate",
  reminders: "reminder",
};

/** The kind of record a route's path parameter names, or undefined when the world does not know it. */
export function paramKind(route: AnyRoute, param: string): string | undefined {
  const fixed = FIXED[`${route.operationId}.${param}`];
  if (fixed !== undefined) return `fixed:${fixed}`;
  if (param === "format") return "enum";
  const override = OVERRIDES[`${route.operationId}.${param}`];
  if (override) return override;
  if (param === "id") {
    return ID_BY_PREFIX.find(([prefix]) => route.path.startsWith(prefix))?.[1];
  }
  if (param === "resourceId") {
    const m = /\/projects\/\{projectId\}\/([a-z-]+)\/\{resourceId\}/.exec(route.path);
    return m ? COLLECTION_KINDS[m[1]!] : undefined;
  }
  return PARAM_KINDS[param];
}

export function pathParams(route: AnyRoute): string[] {
  return [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
}

/** The first enum value of a path parameter's schema (an adapter format). */
function enumValue(route: AnyRoute, param: string): string | undefined {
  const schema = (route.params?.shape as Record<string, { options?: readonly string[] }> | undefined)?.[param];
  return schema?.options?.[0];
}

/** Kinds a world could not seed in its env, with the reason (e.g. webhooks without AMS_WEBHOOK_ENCRYPTION_KEY). */
const MISSING_KINDS = new WeakMap<World, Record<string, string>>();

/** Every (route, parameter) the world cannot fill, with the reason when UNFILLABLE or the env explains it. */
export function unfilledParams(world: World): Array<{ route: AnyRoute; param: string; reason?: string }> {
  const out: Array<{ route: AnyRoute; param: string; reason?: string }> = [];
  for (const route of allRoutes) {
    for (const param of pathParams(route)) {
      if (world.idFor(route, param) !== undefined) continue;
      const kind = paramKind(route, param);
      out.push({ route, param, reason: UNFILLABLE[`${route.operationId}.${param}`] ?? (kind !== undefined ? MISSING_KINDS.get(world)?.[kind] : undefined) });
    }
  }
  return out;
}

// ------------------------------------------------------------------ table snapshots

/** Every row of the partner's compared tables (test/hardening/table-digest.ts says which are left out), in one read. */
export async function snapshotTables(env: TestEnv, partnerId: string): Promise<TableSnapshot> {
  return (await tableDigest(env, partnerId)).snapshot();
}

/** Tables whose rows differ between two snapshots, e.g. `items (+1 −0)`. */
export function changedTables(before: TableSnapshot, after: TableSnapshot): string[] {
  return rowsChanged(before, after).map((c) => `${c.table} (+${c.added} −${c.removed})`);
}

// ------------------------------------------------------------------ seeding

type Family = "assets" | "planning";

class SeedError extends Error {}

interface Caller {
  (user: string, method: string, path: string, body?: unknown, opts?: { family?: Family; expect?: number[]; headers?: Record<string, string>; rawBody?: string; query?: Record<string, string> }): Promise<CallResult>;
}

function makeCaller(env: TestEnv, partnerId: string): Caller {
  return async (user, method, path, body, opts = {}) => {
    const family = opts.family ?? "assets";
    const q = new URLSearchParams({ partnerId, ...(opts.query ?? {}) });
    const url = `/api/${family}${path}?${q}`;
    const res = await env.call(method, url, { token: await env.token(user), body, rawBody: opts.rawBody, headers: opts.headers });
    const ok = opts.expect ?? [200, 201];
    if (!ok.includes(res.status)) throw new SeedError(`world ${partnerId}: ${method} ${url} as ${user} → ${res.status} ${JSON.stringify(res.body).slice(0, 600)}`);
    return res;
  };
}

const BOUNDARY = "----world-seed-boundary-9f3b2c";

/** A multipart/form-data body (text parts and one text file), as a string env.call can send. */
function multipart(fields: Record<string, string>, file: { name: string; type: string; text: string }): { rawBody: string; headers: Record<string, string> } {
  const parts = Object.entries(fields).map(([k, v]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
  parts.push(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n${file.text}\r\n`);
  parts.push(`--${BOUNDARY}--\r\n`);
  return { rawBody: parts.join(""), headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}` } };
}

const PDF = `%PDF-1.7\n${"World evidence: inspection notes for the record.\n".repeat(20)}%%EOF\n`;

/**
 * Seeds one of every record for `partnerId` (provisioned here when missing) and answers the
 * world. Deterministic in shape, not in ids. `hiddenProject: false` skips the hidden project.
 */
export async function seedWorld(env: TestEnv, partnerId: string, opts: { hiddenProject?: boolean } = {}): Promise<World> {
  if (!(await env.deps.tenancy.partnerExists(partnerId))) await env.provision(partnerId);
  for (const role of ROLES) await upsertMember(env.deps, { partnerId, userId: WORLD_USERS[role], role, displayName: `World ${role}`, email: `${role}@world.test` });
  await env.member(partnerId, WORLD_CHECKER, "admin");
  await env.member(partnerId, WORLD_OUTSIDER, "operator");
  const call = makeCaller(env, partnerId);
  const owner = WORLD_USERS.owner;
  const checker = WORLD_CHECKER;
  const ids: Record<string, string> = {};
  const now = env.deps.clock.now();
  const at = (ms: number) => new Date(now.getTime() + ms).toISOString();
  const day = 86_400_000;
  const dateOf = (ms: number) => at(ms).slice(0, 10);
  const eur = (amount: string) => ({ amount, currency: "EUR" });
  const post = async (path: string, body: unknown = {}, user = owner, family: Family = "assets") => (await call(user, "POST", path, body, { family })).body;

  // ---------------------------------------------------------- master data
  ids.site = (await post("/locations", { name: "World site", kind: "site", code: "W-SITE" })).id;
  ids.location = (await post("/locations", { name: "World room", kind: "room", parentId: ids.site })).id;
  ids.location2 = (await post("/locations", { name: "World dock", kind: "room", parentId: ids.site })).id;
  ids.party = (await post("/parties", { name: "World lessor", kind: "organisation" })).id;
  // Ends within the alert horizon: an `agreement_expiring` alert.
  ids.agreement = (await post("/agreements", { kind: "warranty", partyId: ids.party, startsOn: dateOf(-30 * day), endsOn: dateOf(10 * day), reference: "W-AGR" })).id;
  ids.category = (await post("/catalog/categories", { name: "World tools", code: "W-TOOLS" })).id;
  ids.model = (await post("/catalog/models", { name: "World drill", categoryId: ids.category })).id;

  // ---------------------------------------------------------- items
  const asset = async (name: string, extra: Record<string, unknown> = {}) =>
    (await post("/assets", { name, ownership: "owned", locationId: ids.location, modelId: ids.model, categoryId: ids.category, agreementId: ids.agreement, ...extra })).id as string;
  const active = async (name: string, extra: Record<string, unknown> = {}) => {
    const id = await asset(name, extra);
    await post(`/items/${id}/activate`, {});
    return id;
  };
  ids.item = await active("World drill 1", { serialNumber: "W-0001", acquisitionCost: eur("1200.00"), acquiredOn: dateOf(-60 * day) });
  ids.plannedItem = await asset("World drill (planned)");
  ids.checkoutItem = await active("World drill (checked out)");
  ids.reservedItem = await active("World drill (reserved)");
  ids.shipmentItem = await active("World drill (in shipment)");
  ids.workOrderItem = await active("World drill (work order)");
  ids.heldItem = await active("World drill (on hold)");
  ids.financeItem = await active("World forklift", { acquisitionCost: eur("12000.00") });
  ids.disposedItem = await active("World scrap");
  ids.caseItem = await active("World drill (case)");
  ids.quantityItem = await active("World screws", { tracking: "quantity", quantity: 100 });

  ids.identifier = (await post("/identifiers/issue", { itemId: ids.item, scheme: "asset_tag", value: `WTAG-${partnerId}` })).id;

  // ---------------------------------------------------------- custody
  ids.checkout = (await post("/checkouts", { itemId: ids.checkoutItem, holder: { kind: "user", id: owner }, dueAt: at(7 * day), note: "world" })).id;
  ids.reservation = (await post("/reservations", { itemId: ids.reservedItem, holder: { kind: "user", id: owner }, startsAt: at(2 * day), endsAt: at(3 * day) })).id;

  // ---------------------------------------------------------- transit
  ids.shipment = (await post("/shipments", { originLocationId: ids.location, destinationLocationId: ids.location2, carrier: "World freight", expectedArrivalAt: at(2 * day) })).id;
  ids.container = (await post(`/shipments/${ids.shipment}/containers`, { kind: "box", label: "World box" })).id;
  await post(`/containers/${ids.container}/pack`, { itemIds: [ids.shipmentItem] });
  ids.container2 = (await post(`/shipments/${ids.shipment}/containers`, { kind: "pallet", label: "World pallet" })).id;

  // ---------------------------------------------------------- movements (every command above wrote some)
  const movements = (await call(owner, "GET", "/movements")).body.items as Array<{ id: string; itemId: string }>;
  if (movements.length === 0) throw new SeedError(`world ${partnerId}: no movement`);
  ids.movement = movements.find((m) => m.itemId === ids.item)?.id ?? movements[0]!.id;

  // ---------------------------------------------------------- audits
  ids.audit = (await post("/audits", { name: "World stock-take", locationIds: [ids.location] })).id;
  await post(`/audits/${ids.audit}/start`, {});
  await post(`/audits/${ids.audit}/counts`, { entries: [{ itemId: ids.item, locationId: ids.location }] });
  const results = (await call(owner, "GET", `/audits/${ids.audit}/results`)).body.items as Array<{ id: string }>;
  if (results.length === 0) throw new SeedError(`world ${partnerId}: the audit has no result`);
  ids.auditResult = results[0]!.id;

  // ---------------------------------------------------------- maintenance
  ids.workOrder = (await post("/work-orders", { itemId: ids.workOrderItem, kind: "repair", title: "World repair", assigneeUserId: WORLD_USERS.operator, dueAt: at(3 * day) })).id;

  // ---------------------------------------------------------- hub
  ids.hubTask = (await post("/hub/tasks", { taskType: "receiving", title: "World receiving", locationId: ids.location2 })).id;
  ids.dockAppointment = (await post("/hub/dock-appointments", { locationId: ids.location2, carrier: "World freight", kind: "inbound", scheduledAt: at(day) })).id;
  ids.hubRecord = ids.dockAppointment!;
  ids.qualityHold = (await post("/hub/quality-holds", { itemIds: [ids.heldItem], reason: "World inspection", kind: "inspection" })).id;
  ids.replenishmentRule = (await post("/hub/replenishment-rules", { locationId: ids.location2, modelId: ids.model, min: 0, max: 5, label: "World spares" })).id;
  ids.continuityRun = (await post("/hub/continuity-runs", { scenario: "World power loss", checklist: ["Start generator", "Call the site lead"] })).id;

  // ---------------------------------------------------------- webhooks (need AMS_WEBHOOK_ENCRYPTION_KEY)
  const missing: Record<string, string> = {};
  if (env.deps.config.webhookEncryptionKey === undefined) {
    missing.webhook = "this env has no AMS_WEBHOOK_ENCRYPTION_KEY, so no webhook endpoint can be created (409 webhook_key_not_configured)";
  } else {
    const hook = await post("/webhooks", { url: "http://127.0.0.1:9/world-hook", events: ["asset.created", "asset.moved"], enabled: false });
    ids.webhook = hook.id;
  }

  // ---------------------------------------------------------- policies and finance
  const depreciationPolicy = await post("/policies", { type: "depreciation", document: { default: { method: "straight_line", usefulLifeMonths: 60, convention: "full_month" } } });
  await post(`/policies/${depreciationPolicy.id}/submit`, { revision: 1 });
  await post(`/policies/${depreciationPolicy.id}/decision`, { decision: "approve", reason: "world finance rules", expectedRevision: 1 }, checker);
  ids.depreciationPolicy = depreciationPolicy.id;
  // A policy in review (the owner authored it), for the policy routes.
  ids.policy = (await post("/policies", { type: "custody", document: { maxCheckoutDays: 30, acknowledgementRequired: false, overdueEscalationDays: 3 } })).id;
  await post(`/policies/${ids.policy}/submit`, { revision: 1 });

  const year = now.getUTCFullYear();
  ids.book = (await post("/finance/books", { name: "World book", functionalCurrency: "EUR", policyId: ids.depreciationPolicy })).id;
  ids.period = (await post("/finance/periods", { bookId: ids.book, name: `FY${year}`, startsOn: `${year}-01-01`, endsOn: `${year}-12-31` })).id;
  const today = now.toISOString().slice(0, 10);
  const acquisition = await post("/finance/value-entries", {
    bookId: ids.book,
    periodId: ids.period,
    policyId: ids.depreciationPolicy,
    itemId: ids.financeItem,
    kind: "acquisition",
    debit: eur("12000.00"),
    valueDate: today,
    reason: "world acquisition",
  });
  const approved = await post(`/workflow-cases/${acquisition.id}/decision`, { decision: "approve", reason: "world invoice checked", expectedVersion: 1 }, checker);
  ids.valueEntry = approved.applicationReceipt.records.find((r: { recordType: string }) => r.recordType === "finance_value_entry").recordId;
  ids.depreciationProfile = (await post("/finance/depreciation", { bookId: ids.book, itemId: ids.financeItem, cost: eur("12000.00"), residualValue: eur("2000.00"), startDate: `${year}-01-01` })).id;
  ids.componentProfile = (
    await post("/finance/depreciation", { bookId: ids.book, itemId: ids.item, cost: eur("300.00"), residualValue: eur("0.00"), startDate: `${year}-01-01`, componentName: "World battery" })
  ).id;
  ids.insurancePolicy = (await post("/finance/insurance/policies", { insurer: "World insurer", policyNumber: `W-${partnerId}`, premium: eur("100.00"), startsOn: `${year}-01-01`, endsOn: `${year}-12-31` })).id;
  // Last year's period, run and closed: journal batches are prepared from closed periods.
  ids.closedPeriod = (await post("/finance/periods", { bookId: ids.book, name: `FY${year - 1}`, startsOn: `${year - 1}-01-01`, endsOn: `${year - 1}-12-31` })).id;
  await post(`/finance/depreciation/${ids.book}/run`, { periodId: ids.closedPeriod });
  await post(`/finance/periods/${ids.closedPeriod}/close`, {});
  ids.journalBatch = (await post("/finance/journal-batches", { bookId: ids.book, periodId: ids.closedPeriod })).id;
  ids.budget = (await post("/finance/budgets", { bookId: ids.book, periodId: ids.period, name: "World budget", amount: eur("5000.00") })).id;

  // ---------------------------------------------------------- workflow cases
  // A disposal the checker approved: its item is the finance disposal's id.
  const disposal = await post("/workflow-cases", { type: "lifecycle_disposition", operation: { itemId: ids.disposedItem, action: "dispose", method: "scrap" }, reason: "world scrap" });
  await post(`/workflow-cases/${disposal.id}/decision`, { decision: "approve", reason: "world scrap approved", expectedVersion: 1 }, checker);
  // A pending case of the owner's, and one of the operator's (visible to reviewers and to the operator only).
  ids.workflowCase = (await post("/workflow-cases", { type: "lifecycle_disposition", operation: { itemId: ids.caseItem, action: "retire" }, reason: "world retire" })).id;
  ids.operatorWorkflowCase = (
    await post("/workflow-cases", { type: "inspection_calibration", operation: { itemId: ids.caseItem, kind: "inspection", result: "pass", performedOn: today, nextDueOn: dateOf(365 * day) } }, WORLD_USERS.operator)
  ).id;

  // ---------------------------------------------------------- interoperability, imports, evidence
  ids.interopJob = (await post("/interoperability/jobs", { format: "snapshot" })).id;
  await runJob(env.deps, interopExportsJob, { partnerId });
  const csv = multipart({}, { name: "world.csv", type: "text/csv", text: "name,location\nWorld imported chair,World room\n" });
  ids.importBatch = (await call(owner, "POST", "/imports/csv/validate", undefined, csv)).body.id;
  const evidence = async (classification: string, user = owner) =>
    (await call(user, "POST", "/evidence", undefined, multipart({ targetType: "item", targetId: ids.item!, classification }, { name: "world.pdf", type: "application/pdf", text: PDF }))).body.id as string;
  ids.evidence = await evidence("internal");
  await runJob(env.deps, evidenceScanJob, { partnerId });
  await post(`/evidence/${ids.evidence}/review`, { decision: "clean", reason: "world: read and clean" }, checker);
  ids.pendingEvidence = await evidence("internal");
  ids.restrictedEvidence = await evidence("restricted");

  // ---------------------------------------------------------- personal records
  ids.savedView = (await post("/saved-views", { name: "World view", surface: "owned", query: { lifecycle: "active" } })).id;
  // Keys are per partner and user; partner-specific so another world's key names nothing here.
  ids.draftKey = `world-draft-${partnerId}`;
  ids.draftRoute = "/items/new";
  await call(owner, "PUT", `/drafts/${ids.draftKey}`, { route: ids.draftRoute, payload: { name: "World draft" } });
  // The admin's own view and draft (a key only the admin has): personal to them.
  ids.adminSavedView = (await post("/saved-views", { name: "Admin's view", surface: "owned", query: {} }, WORLD_USERS.admin)).id;
  ids.adminDraftKey = `admin-draft-${partnerId}`;
  await call(WORLD_USERS.admin, "PUT", `/drafts/${ids.adminDraftKey}`, { route: ids.draftRoute, payload: { name: "Admin's draft" } });

  // ---------------------------------------------------------- alerts (agreement ending, checkout due)
  await runJob(env.deps, alertsJob, { partnerId });
  const alerts = (await call(owner, "GET", "/alerts")).body.items as Array<{ id: string }>;
  if (alerts.length === 0) throw new SeedError(`world ${partnerId}: the alerts job raised no alert`);
  ids.alert = alerts[0]!.id;

  // ---------------------------------------------------------- planning
  const P = (path: string, body: unknown = {}, user = owner) => post(path, body, user, "planning");
  const members = [
    { userId: WORLD_USERS.admin, role: "lead" },
    { userId: WORLD_USERS.manager, role: "member" },
    { userId: WORLD_USERS.operator, role: "member" },
    { userId: WORLD_USERS.viewer, role: "member" },
  ];
  ids.project = (await P("/projects", { name: "World gala", timeZone: "Europe/Vienna", startsOn: dateOf(30 * day), endsOn: dateOf(31 * day), members })).id;
  const planning = await seedProject(call, owner, ids.project!, at, day, checker, () => runJob(env.deps, evidenceScanJob, { partnerId }));
  Object.assign(ids, planning);

  // A calendar feed (its token is the feed route's parameter).
  const feed = await P(`/projects/${ids.project}/calendar-feed`);
  ids.feedToken = /\/calendar-feeds\/([^/]+)\//.exec(feed.url)![1]!;
  // A write-only destination.
  ids.destination = (await P(`/projects/${ids.project}/destinations`, { kind: "email", name: "World crew list", target: `crew-${partnerId}@world.test` })).id;

  // The SMS gateway: a device of the project, online, and a verification job queued for the owner's number.
  ids.device = Bun.randomUUIDv7();
  const issued = await P(`/projects/${ids.project}/sms-gateway/devices/${ids.device}/native-token`, { action: "issue", policy: { allowedCountries: ["GB"] } });
  const deviceToken: string = issued.nativeToken;
  const device = async (method: string, path: string, body?: unknown) => {
    const res = await env.call(method, `/api/planning/sms-gateway/devices/${ids.device}${path}`, { token: deviceToken, body });
    if (res.status !== 200) throw new SeedError(`world ${partnerId}: device ${method} ${path} → ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  await device("POST", "/heartbeat", { online: true, permissions: { sendSms: true, readPhoneState: true }, sims: [{ slot: 0, country: "GB", state: "active", verified: true, roaming: false }] });
  await call(owner, "POST", `/projects/${ids.project}/my-reminder-channels/sms/start`, { phoneNumber: "+447700900456", countryCode: "GB" }, { family: "planning" });
  const leased = (await device("POST", "/lease", { max: 5 })).jobs as Array<{ jobId: string; leaseId: string }>;
  if (leased.length === 0) throw new SeedError(`world ${partnerId}: the device leased no SMS job`);
  ids.smsJob = leased[0]!.jobId;
  ids.smsLease = leased[0]!.leaseId;

  // The notification outbox: a reminder due now for the owner becomes an email attempt (no SMTP: provider_unconfigured).
  await P(`/projects/${ids.project}/reminders`, { title: "World reminder due", audience: [owner], at: at(-60_000) });
  await runJob(env.deps, remindersJob, { partnerId });
  await runJob(env.deps, remindersJob, { partnerId });
  const history = (await call(owner, "GET", `/projects/${ids.project}/delivery-history`, undefined, { family: "planning" })).body.items as Array<{ id: string }>;
  if (history.length === 0) throw new SeedError(`world ${partnerId}: no notification outbox entry`);
  ids.outbox = history[0]!.id;

  // ---------------------------------------------------------- the hidden project
  let hiddenProjectId = "";
  if (opts.hiddenProject !== false) {
    hiddenProjectId = (await P("/projects", { name: "Hidden gala", timeZone: "Europe/Vienna" }, WORLD_OUTSIDER)).id;
    ids.hiddenProject = hiddenProjectId;
    ids["hidden.project"] = hiddenProjectId;
    // The outsider (an operator) leads it; the checker (planning_admin, sees every project) runs its canonical commands.
    const hidden = await seedProject(call, WORLD_OUTSIDER, hiddenProjectId, at, day, checker, () => runJob(env.deps, evidenceScanJob, { partnerId }));
    for (const [kind, id] of Object.entries(hidden)) ids[`hidden.${kind}`] = id;
    // A destination and an SMS device of the hidden project (planning_admin: the checker).
    ids["hidden.destination"] = (await P(`/projects/${hiddenProjectId}/destinations`, { kind: "email", name: "Hidden list", target: `hidden-${partnerId}@world.test` }, checker)).id;
    ids["hidden.device"] = Bun.randomUUIDv7();
    await P(`/projects/${hiddenProjectId}/sms-gateway/devices/${ids["hidden.device"]}/native-token`, { action: "issue" }, checker);
  }

  const world: World = {
    partnerId,
    users: { ...WORLD_USERS },
    projectId: ids.project!,
    hiddenProjectId,
    ids,
    deviceToken,
    extraUsers: { checker: WORLD_CHECKER, outsider: WORLD_OUTSIDER },
    idFor(route, param) {
      const kind = paramKind(route, param);
      if (kind === undefined) return undefined;
      if (kind.startsWith("fixed:")) return kind.slice("fixed:".length);
      if (kind === "enum") return enumValue(route, param);
      return ids[kind];
    },
    pathFor(route) {
      let missing = false;
      const path = route.path.replaceAll(/\{([^}]+)\}/g, (_, name: string) => {
        const v = world.idFor(route, name);
        if (v === undefined) missing = true;
        return encodeURIComponent(v ?? "");
      });
      return missing ? undefined : path;
    },
    bodyFor(route) {
      return worldBody(route, world, env.deps.clock.now());
    },
    formFor(route) {
      switch (route.operationId) {
        case "createEvidence":
          return multipart({ targetType: "item", targetId: ids.item!, classification: "internal" }, { name: "world.pdf", type: "application/pdf", text: PDF });
        case "createArtifact":
          return multipart({ classification: "internal", planningRecordId: ids.work! }, { name: "rider.pdf", type: "application/pdf", text: PDF });
        case "validateCsvImport":
          return multipart({}, { name: "world.csv", type: "text/csv", text: "name,location\nWorld imported table,World room\n" });
        default:
          return undefined;
      }
    },
    queryFor(route) {
      const today = env.deps.clock.now().toISOString().slice(0, 10);
      const byRoute: Record<string, Record<string, string>> = {
        search: { q: "World" },
        getDraft: { route: ids.draftRoute! },
        deleteDraft: { route: ids.draftRoute! },
        listEligibleUsers: { capability: "hub_assignee" },
        listSettingsRecords: { recordType: "location" },
        listHubRecords: { recordType: "appointment" },
        getFinanceRollforward: { bookId: ids.book!, currency: "EUR", asOf: today },
        exportFinanceAdapter: { bookId: ids.book!, asOf: today },
        exportEpcis: { from: new Date(now.getTime() - day).toISOString(), to: new Date(now.getTime() + day).toISOString() },
        deleteDependency: { fromId: ids.work!, toId: ids.work2! },
        deleteResourceLink: { resourceType: "tier", resourceId: ids.tier!, planningRecordId: ids.work! },
      };
      return { ...(byRoute[route.operationId] ?? {}) };
    },
  };
  MISSING_KINDS.set(world, missing);
  return world;
}

/** One of every planning record in a project (as `lead`, its lead), and the ids by kind. */
async function seedProject(
  call: Caller,
  lead: string,
  projectId: string,
  at: (ms: number) => string,
  day: number,
  /** Who runs canonical commands (planning_apply) and reviews artifacts: a planning admin who is not the lead. */
  admin: string,
  /** Runs the `scans` job on the world's partner (an artifact is cleared only once scanned). */
  scanFiles: () => Promise<unknown>,
): Promise<Record<string, string>> {
  const canonicalUser = admin;
  const reviewer = admin;
  const ids: Record<string, string> = {};
  const base = `/projects/${projectId}`;
  const P = async (path: string, body: unknown = {}, user = lead) => (await call(user, "POST", path, body, { family: "planning" })).body;
  ids.department = (await P(`${base}/departments`, { name: "Stage" })).id;
  ids.calendar = (await P(`${base}/calendars`, { name: "Build week" })).id;
  ids.work = (await P(`${base}/work`, { title: "Rig the lights", startsAt: at(20 * day), dueAt: at(21 * day), departmentId: ids.department })).id;
  ids.work2 = (await P(`${base}/work`, { title: "Focus the lights", startsAt: at(21 * day), dueAt: at(22 * day) })).id;
  ids.requirement = (await P(`${base}/requirements`, { title: "Power plan", ownerUserId: lead, dueOn: at(15 * day).slice(0, 10) })).id;
  ids.meeting = (await P(`${base}/meetings`, { title: "Production meeting", startsAt: at(5 * day), endsAt: at(5 * day + 3_600_000), location: "Office" })).id;
  ids.risk = (
    await P(`${base}/risks`, { title: "Storm", likelihood: 2, impact: 4, ownerUserId: lead, treatment: { option: "change_likelihood", plan: "Tent" }, reviewOn: at(10 * day).slice(0, 10) })
  ).id;
  ids.gate = (await P(`${base}/gates`, { title: "Go/no-go", criteria: [{ text: "Permits in hand" }], dueOn: at(25 * day).slice(0, 10) })).id;
  ids.reminder = (await P(`${base}/reminders`, { title: "Load-in", audience: "project", at: at(19 * day) })).id;
  await P(`${base}/dependencies`, { fromId: ids.work, toId: ids.work2, kind: "finish_to_start" });
  await P(`${base}/meetings/${ids.meeting}/agenda`, { items: [{ title: "Safety", durationMinutes: 10 }] });
  await P(`${base}/meetings/${ids.meeting}/minutes`, { content: "# Minutes\n\nAll good.", state: "draft" });

  // The canonical event, linked, with a tier; a resource link and a change set on it.
  const event = await P(`${base}/canonical-command`, {
    command: "create_event",
    data: { name: "World gala", startsAt: at(30 * day), endsAt: at(30 * day + 5 * 3_600_000), timeZone: "Europe/Vienna", status: "announced" },
  }, canonicalUser);
  ids.event = event.id;
  await P(`${base}/link-event`, { eventId: ids.event });
  const tier = await P(`${base}/canonical-command`, { command: "create_tier", data: { name: "Standard", price: { amount: "30.00", currency: "EUR" } } }, canonicalUser);
  ids.tier = tier.id;
  await P(`${base}/resource-links`, { resourceType: "tier", resourceId: ids.tier, planningRecordId: ids.work });
  ids.changeSet = (
    await P(`${base}/change-sets`, {
      title: "Standard to 35",
      operations: [{ op: "update", target: { type: "tier", id: ids.tier }, expectedUpdatedAt: tier.updatedAt, changes: { price: { amount: "35.00", currency: "EUR" } } }],
    })
  ).id;

  // Artifacts (multipart uploads) bound to the work item: one reviewed clean by another member, one pending, one restricted.
  const artifact = async (classification: string) =>
    (await call(lead, "POST", `${base}/artifacts`, undefined, { family: "planning", ...multipart({ classification, planningRecordId: ids.work! }, { name: "rider.pdf", type: "application/pdf", text: PDF }) }))
      .body.id as string;
  ids.artifact = await artifact("internal");
  // Artifacts are cleared only after the `scans` job scanned them, as evidence.
  await scanFiles();
  await P(`/artifacts/${ids.artifact}/review`, { decision: "clean", reason: "world: read and clean" }, reviewer);
  ids.pendingArtifact = await artifact("internal");
  ids.restrictedArtifact = await artifact("restricted");
  return ids;
}

// ------------------------------------------------------------------ bodies

/** Body fields that name records, by field name → the world's kind. */
const ID_FIELDS: Record<string, string> = {
  itemId: "item",
  itemIds: "item",
  locationId: "location",
  locationIds: "location",
  originLocationId: "location",
  destinationLocationId: "location2",
  toLocationId: "location2",
  readPointId: "location2",
  targetLocationId: "location2",
  parentId: "site",
  partyId: "party",
  ownerPartyId: "party",
  agreementId: "agreement",
  categoryId: "category",
  categoryIds: "category",
  modelId: "model",
  checkoutId: "checkout",
  reservationId: "reservation",
  shipmentId: "shipment",
  containerIds: "container",
  toContainerId: "container",
  parentContainerId: "container",
  taskIds: "hubTask",
  bookId: "book",
  periodId: "period",
  policyId: "depreciationPolicy",
  eventId: "event",
  fromId: "work",
  toId: "work2",
  planningRecordId: "work",
  departmentId: "department",
  calendarId: "calendar",
  leaseId: "smsLease",
  targetId: "item",
};

/** Field values that are not record ids but must be real (members, currencies, amounts). */
const VALUE_FIELDS: Record<string, (w: World) => unknown> = {
  currency: () => "EUR",
  functionalCurrency: () => "EUR",
  amount: () => "10.00",
  userId: (w) => w.users.owner,
  ownerUserId: (w) => w.users.owner,
  assigneeUserId: (w) => w.users.operator,
  presenterUserId: (w) => w.users.owner,
  leadUserId: (w) => w.users.owner,
  attendeeUserIds: (w) => [w.users.owner],
  timeZone: () => "Europe/Vienna",
  url: () => "http://127.0.0.1:9/world-hook",
  raw: (w) => `WTAG-${w.partnerId}`,
  countryCode: () => "GB",
  phoneNumber: () => "+447700900789",
  job: () => "alerts",
  scenario: () => "World drill",
};

/**
 * Bodies (or parts) a schema cannot say how to fill: exactly-one-of rules, cross-field rules,
 * records in a given state. By operationId; merged over the generated body.
 */
function bodyOverrides(w: World, now: Date): Record<string, Record<string, unknown>> {
  const ids = w.ids;
  const at = (ms: number) => new Date(now.getTime() + ms).toISOString();
  const day = 86_400_000;
  const today = now.toISOString().slice(0, 10);
  return {
    moveItem: { toLocationId: ids.location2 },
    repackContainer: { toContainerId: ids.container2, itemIds: [ids.shipmentItem] },
    updateItem: { expectedVersion: 2, name: "World drill 1 (renamed)" },
    packContainer: { itemIds: [ids.item] },
    unpackContainer: { itemIds: [ids.shipmentItem] },
    createCheckout: { itemId: ids.item, holder: { kind: "user", id: w.users.owner }, dueAt: at(3 * day) },
    createReservation: { itemId: ids.item, holder: { kind: "user", id: w.users.owner }, startsAt: at(10 * day), endsAt: at(11 * day) },
    transferCheckout: { holder: { kind: "location", id: ids.location } },
    extendCheckout: { dueAt: at(9 * day), reason: "world: more time" },
    correctMovement: { reason: "world: wrong room", locationId: ids.location2 },
    consumeItem: { quantity: 1 },
    issueIdentifier: { itemId: ids.item, scheme: "serial", value: `WSER-${w.partnerId}-${Math.random().toString(36).slice(2, 8)}` },
    receiveShipment: { items: [{ itemId: ids.shipmentItem }] },
    reportShipmentException: { kind: "delay", note: "world: late truck" },
    handOffShipment: { carrier: "World freight", readPointId: ids.location2 },
    recordAuditCounts: { entries: [{ itemId: ids.item, locationId: ids.location }] },
    createAudit: { name: "World audit 2", locationIds: [ids.location] },
    createWorkOrder: { itemId: ids.item, kind: "inspection", title: "World inspection" },
    completeWorkOrder: { outcome: "fixed" },
    createHubTask: { taskType: "receiving", title: "World task 2" },
    assignHubTasks: { taskIds: [ids.hubTask], assigneeUserId: w.users.operator, reason: "world: on shift" },
    createDockAppointment: { locationId: ids.location2, carrier: "World freight", kind: "inbound", scheduledAt: at(2 * day) },
    transitionDockAppointment: { to: "arrived" },
    createQualityHold: { itemIds: [ids.item], reason: "world: check", kind: "inspection" },
    resolveQualityHold: { resolution: "release" },
    createReplenishmentRule: { locationId: ids.location, modelId: ids.model, min: 0, max: 3 },
    createContinuityRun: { scenario: "World flood", checklist: ["Sandbags"] },
    completeContinuityRun: { results: [{ position: 1, result: "passed" }, { position: 2, result: "passed" }], outcome: "passed" },
    createWebhook: { url: "http://127.0.0.1:9/world-hook-2", events: ["asset.created"], enabled: false },
    replaceWebhook: { url: "http://127.0.0.1:9/world-hook", events: ["asset.created"], enabled: false },
    createWorkflowCase: { type: "lifecycle_disposition", operation: { itemId: ids.item, action: "retire" }, reason: "world" },
    decideWorkflowCase: { decision: "reject", reason: "world: not now", expectedVersion: 1 },
    proposeFinanceValueEntry: {
      bookId: ids.book,
      periodId: ids.period,
      policyId: ids.depreciationPolicy,
      itemId: ids.financeItem,
      kind: "addition",
      debit: { amount: "100.00", currency: "EUR" },
      valueDate: today,
    },
    reverseFinanceValueEntry: { reason: "world: wrong amount" },
    runDepreciation: { periodId: ids.period },
    changeDepreciationEstimate: { usefulLifeMonths: 72, reason: "world: longer life" },
    replaceFinanceComponent: { periodId: ids.period, valueDate: today, cost: { amount: "350.00", currency: "EUR" }, reason: "world: new battery" },
    createNrvReview: { bookId: ids.book, periodId: ids.period, policyId: ids.depreciationPolicy, itemId: ids.financeItem, valueDate: today, netRealisableValue: { amount: "11000.00", currency: "EUR" }, reason: "world" },
    analyzeTco: { bookId: ids.book, itemId: ids.financeItem },
    createLifecycleCost: { itemId: ids.financeItem, kind: "energy", amount: { amount: "12.00", currency: "EUR" }, incurredOn: today },
    createBudget: { bookId: ids.book, periodId: ids.period, name: "World budget 2", amount: { amount: "10.00", currency: "EUR" } },
    createInsurancePolicy: { insurer: "World insurer", policyNumber: `W2-${w.partnerId}`, premium: { amount: "10.00", currency: "EUR" }, startsOn: today, endsOn: today },
    createCoverage: { policyId: ids.insurancePolicy, itemId: ids.financeItem, sumInsured: { amount: "1000.00", currency: "EUR" } },
    createInsuranceClaim: { itemId: ids.financeItem, incidentDate: today, amountClaimed: { amount: "10.00", currency: "EUR" }, description: "world: dent" },
    forecastReplacements: { bookId: ids.book, itemId: ids.financeItem },
    createJournalBatch: { bookId: ids.book, periodId: ids.closedPeriod },
    createFinanceReceipt: { bookId: ids.book, itemId: ids.financeItem, supplier: "World supplier", reference: "W-R1", receivedOn: today, amount: { amount: "10.00", currency: "EUR" } },
    reconcileFinanceReceipts: { bookId: ids.book, periodId: ids.period },
    completeFinanceDisposal: { bookId: ids.book, periodId: ids.period, valueDate: today, proceeds: { amount: "0.00", currency: "EUR" }, reason: "world: scrapped" },
    createFinanceBook: { name: "World book 2", functionalCurrency: "EUR", policyId: ids.depreciationPolicy },
    createFiscalPeriod: { bookId: ids.book, name: "World next", startsOn: `${now.getUTCFullYear() + 1}-01-01`, endsOn: `${now.getUTCFullYear() + 1}-12-31` },
    createDepreciationProfile: { bookId: ids.book, itemId: ids.item, cost: { amount: "100.00", currency: "EUR" }, residualValue: { amount: "0.00", currency: "EUR" }, startDate: today },
    createPolicy: { type: "custody", document: { maxCheckoutDays: 14, acknowledgementRequired: false, overdueEscalationDays: 2 } },
    revisePolicy: { expectedRevision: 1, document: { maxCheckoutDays: 21, acknowledgementRequired: false, overdueEscalationDays: 2 } },
    submitPolicy: { revision: 1 },
    decidePolicy: { decision: "reject", reason: "world: not now", expectedRevision: 1 },
    createInteropJob: { format: "snapshot" },
    validateEpcis: { document: {} },
    createSavedView: { name: `World view ${Math.random().toString(36).slice(2, 8)}`, surface: "owned", query: {} },
    updateSavedView: { expectedVersion: 1, name: "World view renamed" },
    putDraft: { route: ids.draftRoute, payload: { step: 2 } },
    replaceCapability: { roleDefaults: ["operator", "manager", "admin", "owner"], grants: [] },
    createLocation: { name: "World room 2", kind: "room", parentId: ids.site },
    createAsset: { name: "World drill 2", ownership: "owned", locationId: ids.location },
    createShipment: { originLocationId: ids.location, destinationLocationId: ids.location2 },
    createContainer: { kind: "box" },
    reviewAuditResult: { decision: "accept", reason: "world: counted" },
    reviewEvidence: { decision: "clean", reason: "world" },
    // planning
    createProject: { name: "World project 2", timeZone: "Europe/Vienna" },
    updateProject: { expectedVersion: 1, name: "World gala (renamed)" },
    linkProjectEvent: { eventId: ids.event },
    runCanonicalCommand: { command: "create_tier", data: { name: "VIP", price: { amount: "90.00", currency: "EUR" } } },
    createWorkItem: { title: "World work 3", departmentId: ids.department, calendarId: ids.calendar },
    updateWorkItem: { expectedVersion: 1, departmentId: ids.department },
    createRequirement: { title: "World requirement 2", ownerUserId: w.users.owner, dueOn: today, departmentId: ids.department },
    createMeeting: { title: "World meeting 2", startsAt: at(6 * day), endsAt: at(6 * day + 3_600_000), departmentId: ids.department },
    updateMeeting: { expectedVersion: 1, title: "World meeting (renamed)" },
    createRisk: { title: "World risk 2", likelihood: 1, impact: 1, ownerUserId: w.users.owner, treatment: { option: "retain" }, reviewOn: today },
    createGate: { title: "World gate 2", criteria: [{ text: "Ready" }] },
    createReminder: { title: "World reminder 2", audience: "project", offsetMinutes: -30, relativeTo: ids.meeting },
    createDependency: { fromId: ids.work2, toId: ids.work, kind: "start_to_start" },
    createResourceLink: { resourceType: "event", resourceId: ids.event, planningRecordId: ids.work2 },
    createChangeSet: { title: "World change", operations: [{ op: "update", target: { type: "tier", id: ids.tier }, expectedUpdatedAt: now.toISOString(), changes: { name: "Standard 2" } }] },
    reviewChangeSet: { decision: "reject", reason: "world: not now" },
    cancelChangeSet: { reason: "world: withdrawn" },
    addAgendaItems: { items: [{ title: "World item", durationMinutes: 5 }] },
    createMinutes: { content: "World minutes" },
    setMeetingOccurrence: { occurrenceAt: at(5 * day), cancelled: true },
    reviewArtifact: { decision: "clean", reason: "world" },
    importPlanningRecords: { mode: "preview", records: [{ collection: "departments", id: ids.department, expectedVersion: 1, data: { name: "Stage (imported)" } }] },
    createDestination: { kind: "email", name: "World list 2", target: `list2-${w.partnerId}@world.test` },
    runMyReminderChannelAction: { reminders: true },
    manageSmsDeviceNativeToken: { action: "rotate" },
    recordSmsDeviceHeartbeat: { online: true, permissions: { sendSms: true, readPhoneState: true }, sims: [{ slot: 0, country: "GB", state: "active", verified: true, roaming: false }] },
    leaseSmsJobs: { max: 1 },
    recheckSmsJob: { leaseId: ids.smsLease, payloadDigest: "0".repeat(64), cancellationRevision: 0 },
    recordSmsReceipt: { leaseId: ids.smsLease, clientMessageId: `world-${Math.random().toString(36).slice(2, 8)}`, status: "sent" },
    runScheduledJob: { job: "alerts" },
  };
}

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  format?: string;
  minimum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  default?: unknown;
};

/** A deterministic value of a JSON Schema, record ids by field name from the world. */
function sample(s: JsonSchema, name: string | undefined, w: World, now: Date, pointer: string, idFields: Array<{ pointer: string; kind: string }>): unknown {
  const idKind = name !== undefined ? ID_FIELDS[name] : undefined;
  if (idKind !== undefined && w.ids[idKind] !== undefined) {
    const plural = s.type === "array" || (s.anyOf ?? s.oneOf ?? []).some((x) => x.type === "array");
    if (plural) {
      idFields.push({ pointer: `${pointer}/0`, kind: idKind });
      return [w.ids[idKind]];
    }
    idFields.push({ pointer, kind: idKind });
    return w.ids[idKind];
  }
  const value = name !== undefined ? VALUE_FIELDS[name] : undefined;
  if (value) return value(w);
  if (s.const !== undefined) return s.const;
  if (s.enum) return s.enum[0];
  const branches = s.anyOf ?? s.oneOf;
  if (branches) return sample(branches.find((b) => b.type !== "null") ?? branches[0]!, name, w, now, pointer, idFields);
  if (s.allOf) return sample(Object.assign({}, ...s.allOf), name, w, now, pointer, idFields);
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== "null") : s.type;
  switch (type) {
    case "object": {
      const out: Record<string, unknown> = {};
      for (const key of s.required ?? []) out[key] = sample(s.properties?.[key] ?? {}, key, w, now, `${pointer}/${key}`, idFields);
      return out;
    }
    case "array":
      return Array.from({ length: Math.max(1, s.minItems ?? 0) }, (_, i) => sample(s.items ?? {}, undefined, w, now, `${pointer}/${i}`, idFields));
    case "integer":
    case "number":
      return Math.max(1, s.minimum ?? 1, s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 1);
    case "boolean":
      return false;
    case "null":
      return null;
    default:
      if (s.format === "uuid") return w.ids.item;
      if (s.format === "date-time") return new Date(now.getTime() + 86_400_000).toISOString();
      if (s.format === "date" || (s as { pattern?: string }).pattern?.includes("\\d{4}-\\d{2}-\\d{2}")) return now.toISOString().slice(0, 10);
      return "World text".padEnd(Math.max(s.minLength ?? 0, 10), "x");
  }
}

/** Pointers of the override's string values that are ids of this world's records, for `idFields`. */
function overrideIdFields(value: unknown, pointer: string, name: string | undefined, w: World, out: Array<{ pointer: string; kind: string }>): void {
  if (typeof value === "string") {
    const preferred = name !== undefined ? ID_FIELDS[name] : undefined;
    const kind = preferred !== undefined && w.ids[preferred] === value ? preferred : Object.keys(w.ids).find((key) => w.ids[key] === value && !key.startsWith("hidden."));
    if (kind !== undefined && kind !== "draftKey" && kind !== "draftRoute" && kind !== "adminDraftKey") out.push({ pointer, kind });
  } else if (Array.isArray(value)) value.forEach((v, i) => overrideIdFields(v, `${pointer}/${i}`, name, w, out));
  else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) overrideIdFields(v, `${pointer}/${k}`, k, w, out);
}

export function worldBody(route: AnyRoute, w: World, now: Date): { body: unknown; idFields: Array<{ pointer: string; kind: string }> } | undefined {
  if (!route.body) return undefined;
  const schema = z.toJSONSchema(route.body as never, { io: "input", unrepresentable: "any" }) as JsonSchema;
  const override = bodyOverrides(w, now)[route.operationId];
  if (override) {
    const idFields: Array<{ pointer: string; kind: string }> = [];
    overrideIdFields(override, "/body", undefined, w, idFields);
    return { body: override, idFields };
  }
  const idFields: Array<{ pointer: string; kind: string }> = [];
  const body = sample(schema, undefined, w, now, "/body", idFields);
  return { body, idFields };
}
