// Parties (spec order): list, create, read, update.
import type { AnyRoute } from "../../platform/http/define-route.ts";
import { listParties } from "./routes/list-parties.ts";
import { createParty } from "./routes/create-party.ts";
import { getParty } from "./routes/get-party.ts";
import { updateParty } from "./routes/update-party.ts";

export const routes: AnyRoute[] = [listParties, createParty, getParty, updateParty];
