import type { AnyRoute } from "../../platform/http/define-route.ts";
import { listChangeSets } from "./routes/list-change-sets.ts";
import { createChangeSet } from "./routes/create-change-set.ts";
import { getChangeSet } from "./routes/get-change-set.ts";
import { reviewChangeSet } from "./routes/review-change-set.ts";
import { applyChangeSet } from "./routes/apply-change-set.ts";
import { submitChangeSet } from "./routes/submit-change-set.ts";
import { cancelChangeSet } from "./routes/cancel-change-set.ts";

export const routes: AnyRoute[] = [listChangeSets, createChangeSet, getChangeSet, submitChangeSet, reviewChangeSet, applyChangeSet, cancelChangeSet];
