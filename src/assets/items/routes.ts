import type { AnyRoute } from "../../platform/http/define-route.ts";
import { getItem } from "./routes/get-item.ts";
import { createAsset } from "./routes/create-asset.ts";
import { updateItem } from "./routes/update-item.ts";
import { activateItem } from "./routes/activate-item.ts";
import { moveItem } from "./routes/move-item.ts";
import { consumeItem } from "./routes/consume-item.ts";

export const routes: AnyRoute[] = [getItem, createAsset, updateItem, activateItem, moveItem, consumeItem];
