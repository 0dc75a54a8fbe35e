import type { AnyRoute } from "../../platform/http/define-route.ts";
import { createEvidence } from "./routes/create-evidence.ts";
import { listEvidence } from "./routes/list-evidence.ts";
import { getEvidenceContent } from "./routes/get-evidence-content.ts";
import { reviewEvidence } from "./routes/review-evidence.ts";

// Spec order: POST /evidence; GET /evidence; GET /evidence/:id/content; POST /evidence/:id/review.
export const routes: AnyRoute[] = [createEvidence, listEvidence, getEvidenceContent, reviewEvidence];
