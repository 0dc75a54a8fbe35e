import type { AnyRoute } from "../../platform/http/define-route.ts";
import { createResourceLink } from "./routes/create-resource-link.ts";
import { deleteResourceLink } from "./routes/delete-resource-link.ts";

export const routes: AnyRoute[] = [createResourceLink, deleteResourceLink];
