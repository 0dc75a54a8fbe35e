// The planning pages, in navigation order. Add a page: write it in this folder (a PageDef,
// see ../types.ts and console/README.md) and list it here.
import type { PageDef } from "../types.ts";
import { projectsPage } from "./projects.tsx";

export const planningPages: PageDef[] = [projectsPage];
