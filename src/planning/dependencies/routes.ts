import type { AnyRoute } from "../../platform/http/define-route.ts";
import { createDependency } from "./routes/create-dependency.ts";
import { deleteDependency } from "./routes/delete-dependency.ts";
import { listDependencies } from "./routes/list-dependencies.ts";

export const routes: AnyRoute[] = [listDependencies, createDependency, deleteDependency];
