import { listEligibleUsers } from "./routes/list-eligible-users.ts";
import { listCapabilities } from "./routes/list-capabilities.ts";
import { replaceCapability } from "./routes/replace-capability.ts";

export const routes = [listEligibleUsers, listCapabilities, replaceCapability];
