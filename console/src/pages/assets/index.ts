// The asset pages, in navigation order. Add a page: write it in this folder (a PageDef, see
// ../types.ts and console/README.md) and list it here. The shell takes the first page whose
// path matches, so a fixed path ("/assets/hub/tasks") comes before a pattern that would match it.
import type { PageDef } from "../types.ts";
import { loanedPage, ownedPage } from "./register.tsx";
import { searchPage } from "./search.tsx";
import { scanPage } from "./scan.tsx";
import { itemPage } from "./item.tsx";
import { checkoutsPage } from "./custody.tsx";
import { shipmentPage, shipmentSectionPage, shipmentsPage } from "./transit.tsx";
import { auditPage, auditsPage } from "./audits.tsx";
import { workOrderPage, workOrdersPage } from "./work-orders.tsx";
import { hubBoardPage, hubTasksPage } from "./hub.tsx";
import { alertsPage } from "./alerts.tsx";
import { reviewQueuePage, reviewsPage } from "./reviews.tsx";
import { importsPage } from "./imports.tsx";
import { financePage, financeSectionPage } from "./finance.tsx";
import { webhookDeliveriesPage, webhooksPage } from "./webhooks.tsx";

export const assetsPages: PageDef[] = [
  ownedPage,
  loanedPage,
  searchPage,
  scanPage,
  itemPage,
  checkoutsPage,
  shipmentsPage,
  shipmentPage,
  shipmentSectionPage,
  auditsPage,
  auditPage,
  workOrdersPage,
  workOrderPage,
  hubBoardPage,
  hubTasksPage,
  alertsPage,
  reviewsPage,
  reviewQueuePage,
  financePage,
  financeSectionPage,
  importsPage,
  webhooksPage,
  webhookDeliveriesPage,
];
