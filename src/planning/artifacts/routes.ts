import type { AnyRoute } from "../../platform/http/define-route.ts";
import { createArtifact } from "./routes/create-artifact.ts";
import { getArtifactContent } from "./routes/get-artifact-content.ts";
import { reviewArtifact } from "./routes/review-artifact.ts";

// Spec order: upload, content proxy, review.
export const routes: AnyRoute[] = [createArtifact, getArtifactContent, reviewArtifact];
