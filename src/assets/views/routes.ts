import { listSavedViews } from "./routes/list-saved-views.ts";
import { getSavedView } from "./routes/get-saved-view.ts";
import { createSavedView } from "./routes/create-saved-view.ts";
import { updateSavedView } from "./routes/update-saved-view.ts";
import { deleteSavedView } from "./routes/delete-saved-view.ts";
import { getDraft } from "./routes/get-draft.ts";
import { putDraft } from "./routes/put-draft.ts";
import { deleteDraft } from "./routes/delete-draft.ts";

export const routes = [listSavedViews, getSavedView, createSavedView, updateSavedView, deleteSavedView, getDraft, putDraft, deleteDraft];
