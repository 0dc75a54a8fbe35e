// What differs between the eight collections: the title field's name, the data
// fields kept beside it, the initial state, what "due" means, who a record names,
// and the response shape. collections.service.ts runs the same create, update,
// list and read for all of them.
import type { CollectionName } from "./collections.tables.ts";
import type { StatefulCollection } from "./collections.states.ts";

export type RecordRow = {
  id: string;
  projectId: string;
  collection: CollectionName;
  title: string;
  state: string | null;
  dueAt: string | null;
  data: Record<string, unknown>;
  version: number;
  createdAt: string;
  updatedAt: string;
  createdBy: string;
};

export type Relation = "assignee" | "owner" | "attendee" | "lead";
type Data = Record<string, unknown>;

export interface CollectionDef {
  name: CollectionName;
  /** How messages name one record: "work item", "requirement". */
  label: string;
  titleKey: "title" | "name";
  /** The data fields kept besides the title (absent optional ones stored as null). */
  fields: readonly string[];
  /** Collections with states: the state a new record starts in. */
  initialState?: (input: Data) => string;
  stateful?: StatefulCollection;
  /** The record's time for my-work and the workspace. */
  due: (data: Data) => string | null;
  /** The people a record names, with how. */
  people: (data: Data) => Array<{ userId: string; relation: Relation }>;
  /** Data fields that name people of the project (checked to be members). */
  personFields: readonly string[];
  /** The response body: meta, title, data, state, and derived fields. */
  extra?: (row: RecordRow) => Data;
}

const str = (v: unknown) => (typeof v === "string" ? v : null);
const one = (v: unknown, relation: Relation) => (typeof v === "string" ? [{ userId: v, relation }] : []);

export const DEFS: Record<CollectionName, CollectionDef> = {
  departments: {
    name: "departments",
    label: "department",
    titleKey: "name",
    fields: ["description", "leadUserId"],
    due: () => null,
    people: (d) => one(d.leadUserId, "lead"),
    personFields: ["leadUserId"],
  },
  calendars: {
    name: "calendars",
    label: "calendar",
    titleKey: "name",
    fields: ["description", "timeZone"],
    due: () => null,
    people: () => [],
    personFields: [],
  },
  work: {
    name: "work",
    label: "work item",
    titleKey: "title",
    fields: ["description", "startsAt", "dueAt", "assigneeUserId", "departmentId", "calendarId", "estimateMinutes"],
    initialState: () => "open",
    stateful: "work",
    due: (d) => str(d.dueAt),
    people: (d) => one(d.assigneeUserId, "assignee"),
    personFields: ["assigneeUserId"],
  },
  requirements: {
    name: "requirements",
    label: "requirement",
    titleKey: "title",
    fields: ["ownerUserId", "dueOn", "acceptanceCriteria", "description", "departmentId"],
    initialState: () => "draft",
    stateful: "requirements",
    due: (d) => str(d.dueOn),
    people: (d) => one(d.ownerUserId, "owner"),
    personFields: ["ownerUserId"],
  },
  meetings: {
    name: "meetings",
    label: "meeting",
    titleKey: "title",
    fields: ["startsAt", "endsAt", "location", "recurrence", "attendeeUserIds", "departmentId"],
    initialState: (input) => (input.state === "draft" ? "draft" : "scheduled"),
    stateful: "meetings",
    due: (d) => str(d.startsAt),
    people: (d) => ((d.attendeeUserIds as string[] | null) ?? []).map((userId) => ({ userId, relation: "attendee" as const })),
    personFields: ["attendeeUserIds"],
    extra: (r) => ({ attendeeUserIds: (r.data.attendeeUserIds as string[] | null) ?? [] }),
  },
  risks: {
    name: "risks",
    label: "risk",
    titleKey: "title",
    fields: ["description", "riskSource", "consequence", "likelihood", "impact", "ownerUserId", "treatment", "reviewOn"],
    due: (d) => str(d.reviewOn),
    people: (d) => one(d.ownerUserId, "owner"),
    personFields: ["ownerUserId"],
    extra: (r) => {
      const t = r.data.treatment as { option: string; plan?: string | null };
      return { level: Number(r.data.likelihood) * Number(r.data.impact), treatment: { option: t.option, plan: t.plan ?? null } };
    },
  },
  gates: {
    name: "gates",
    label: "gate",
    titleKey: "title",
    fields: ["criteria", "dueOn", "ownerUserId", "decision"],
    due: (d) => str(d.dueOn),
    people: (d) => one(d.ownerUserId, "owner"),
    personFields: ["ownerUserId"],
    extra: (r) => ({ criteria: (r.data.criteria as Array<{ text: string; met?: boolean }>).map((c) => ({ text: c.text, met: c.met ?? false })) }),
  },
  reminders: {
    name: "reminders",
    label: "reminder",
    titleKey: "title",
    fields: ["message", "audience", "at", "offsetMinutes", "relativeTo"],
    due: (d) => str(d.at),
    people: () => [],
    personFields: ["audience"],
    extra: () => ({ channel: "email" }),
  },
};

/** The record as its collection's response schema shows it. */
export function toRecordDto(row: RecordRow) {
  const def = DEFS[row.collection];
  const data: Data = {};
  for (const k of def.fields) data[k] = row.data[k] ?? null;
  return {
    id: row.id,
    projectId: row.projectId,
    [def.titleKey]: row.title,
    ...data,
    ...(def.stateful ? { state: row.state } : {}),
    ...def.extra?.(row),
    version: row.version,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    createdBy: row.createdBy,
  } as Record<string, unknown> & { id: string; version: number };
}
