import type { AnyRoute } from "../../platform/http/define-route.ts";
import { listProjects } from "./routes/list-projects.ts";
import { createProject } from "./routes/create-project.ts";
import { updateProject } from "./routes/update-project.ts";
import { linkProjectEvent } from "./routes/link-project-event.ts";

export const routes: AnyRoute[] = [listProjects, createProject, updateProject, linkProjectEvent];
