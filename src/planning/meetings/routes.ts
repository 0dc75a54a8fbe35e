import type { AnyRoute } from "../../platform/http/define-route.ts";
import { getMeeting } from "./routes/get-meeting.ts";
import { addAgendaItems } from "./routes/add-agenda-items.ts";
import { createMinutes } from "./routes/create-minutes.ts";
import { setMeetingOccurrence } from "./routes/set-meeting-occurrence.ts";

// Spec order: the meeting, its agenda, its minutes; then the series exceptions (beyond the spec).
export const routes: AnyRoute[] = [getMeeting, addAgendaItems, createMinutes, setMeetingOccurrence];
