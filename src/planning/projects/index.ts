// The published surface of planning/projects: what other domains may import from it (only this file;
// the rest of the folder is internal, test/contract/layout.test.ts).
export { ProjectDetail, ProjectParams } from "./projects.schemas.ts";
export { membersOf, membersQuery, projectQuery, projectRoleOf, projectScope, requireProjectAccess, toMemberDto, toProjectDto, visibleProjectIds } from "./projects.service.ts";
export type { ProjectRow, ScopeCtx } from "./projects.service.ts";
export { allMembershipsQuery, projectNameOf, projectSchedulesQuery } from "./projects.queries.ts";
