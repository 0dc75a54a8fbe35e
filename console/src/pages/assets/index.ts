// The asset pages, in navigation order. Add a page: write it in this folder (a PageDef, see
// ../types.ts and console/README.md) and list it here.
import type { PageDef } from "../types.ts";
import { loanedPage, ownedPage } from "./register.tsx";
import { webhookDeliveriesPage, webhooksPage } from "./webhooks.tsx";

export const assetsPages: PageDef[] = [ownedPage, loanedPage, webhooksPage, webhookDeliveriesPage];
