// Agreements (spec order): list, create, read, update.
import type { AnyRoute } from "../../platform/http/define-route.ts";
import { listAgreements } from "./routes/list-agreements.ts";
import { createAgreement } from "./routes/create-agreement.ts";
import { getAgreement } from "./routes/get-agreement.ts";
import { updateAgreement } from "./routes/update-agreement.ts";

export const routes: AnyRoute[] = [listAgreements, createAgreement, getAgreement, updateAgreement];
