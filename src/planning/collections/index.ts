// The published surface of planning/collections: what other domains may import from it (only this file;
// the rest of the folder is internal, test/contract/layout.test.ts).
export type { RecordRow } from "./collections.defs.ts";
export { CreateCalendar, CreateDepartment, CreateGate, CreateMeeting, CreateReminder, CreateRequirement, CreateRisk, CreateWorkItem, Gate, Meeting, Risk, UpdateCalendar, UpdateDepartment, UpdateGate, UpdateMeeting, UpdateReminder, UpdateRequirement, UpdateRisk, UpdateWorkItem } from "./collections.schemas.ts";
export { createRecords, findRecord, loadScopedRecord, requireRecord, toRecordDto, updateRecord } from "./collections.service.ts";
export { OPEN_REQUIREMENT_STATES, OPEN_WORK_STATES, UPCOMING_MEETING_STATES } from "./collections.states.ts";
export { COLLECTIONS } from "./collections.tables.ts";
export type { CollectionName } from "./collections.tables.ts";
export { allRemindersQuery, datedWorkQuery, projectMeetingsQuery, reminderTargetsQuery, reminderTextQuery, gatesQuery, personalRecordsCountQuery, personalRecordsQuery, recordCountsQuery, topRisksQuery, upcomingMeetingsQuery } from "./collections.queries.ts";
export type { PersonalRecordKind } from "./collections.queries.ts";
export { MAX_SERIES_YEARS, RECURRENCE_BOUNDS, RecurrenceError, expandOccurrences, expandSeries, floatingOf, isAmbiguousLocal, isOccurrenceOf, ruleProblem, seriesProblem } from "./recurrence.ts";
export type { Occurrence } from "./recurrence.ts";
