// The planning pages, in navigation order. Add a page: write it in this folder (a PageDef,
// see ../types.ts and console/README.md) and list it here. Pages of one project (its
// workspace, timeline, meetings, change sets, reminder channels, delivery history) are
// reached from the project, not from the main navigation.
import type { PageDef } from "../types.ts";
import { projectsPage } from "./projects.tsx";
import { myWorkPage } from "./my-work.tsx";
import { projectPage } from "./project.tsx";
import { timelinePage } from "./timeline.tsx";
import { meetingsPage } from "./meetings.tsx";
import { meetingPage } from "./meeting.tsx";
import { changeSetsPage } from "./change-sets.tsx";
import { changeSetPage } from "./change-set.tsx";
import { reminderChannelsPage } from "./reminder-channels.tsx";
import { deliveryHistoryPage } from "./delivery-history.tsx";

export const planningPages: PageDef[] = [
  projectsPage,
  myWorkPage,
  projectPage,
  timelinePage,
  meetingsPage,
  meetingPage,
  changeSetsPage,
  changeSetPage,
  reminderChannelsPage,
  deliveryHistoryPage,
];
