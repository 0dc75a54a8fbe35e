import type { AnyRoute } from "../../platform/http/define-route.ts";
import { streamAssetEvents } from "./routes/stream-asset-events.ts";

export const routes: AnyRoute[] = [streamAssetEvents];
