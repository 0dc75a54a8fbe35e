// Every page of the console: the shell routes and builds the navigation from this list.
import type { PageDef } from "./types.ts";
import { homePage } from "./home.tsx";
import { assetsPages } from "./assets/index.ts";
import { planningPages } from "./planning/index.ts";

export const pages: PageDef[] = [homePage, ...assetsPages, ...planningPages];
