// What the caller may do in one project. The capability says whether the route is open to
// the caller's role (x-capability); the project role (lead, member, viewer) narrows it: a
// project viewer edits nothing, and only leads (or planning_admin) change the member list.
import { useCaller } from "../../session/context.tsx";
import type { Workspace } from "./project-frame.tsx";

export const OPEN_STATES = ["concept", "active", "readiness"] as const;

export interface ProjectAccess {
  /** lead, member, viewer, or null (not a member: seen through planning_admin). */
  role: "lead" | "member" | "viewer" | null;
  /** Plan writes (collections, dependencies, meetings, change sets) pass the project check. */
  edit: boolean;
  /** The plan can still change (open or paused); handed off, cancelled and archived are frozen. */
  planning: boolean;
  admin: boolean;
}

export function useProjectAccess(w: Workspace): ProjectAccess {
  const caller = useCaller();
  const me = caller.session.claims.sub;
  const role = w.members.find((m) => m.userId === me)?.role ?? null;
  const admin = caller.capabilities.has("planning_admin");
  const planning = (OPEN_STATES as readonly string[]).includes(w.state) || w.state === "paused";
  return { role, admin, planning, edit: admin || role === "lead" || role === "member" };
}
