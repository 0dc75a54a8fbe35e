import type { AnyRoute } from "../../platform/http/define-route.ts";
import { createDestination } from "./routes/create-destination.ts";
import { testDestination } from "./routes/test-destination.ts";
import { getMyReminderChannels } from "./routes/get-my-reminder-channels.ts";
import { runMyReminderChannelAction } from "./routes/run-my-reminder-channel-action.ts";
import { listDeliveryHistory } from "./routes/list-delivery-history.ts";
import { retryNotificationOutboxEntry } from "./routes/retry-notification-outbox-entry.ts";
import { reconcileNotificationOutboxEntry } from "./routes/reconcile-notification-outbox-entry.ts";

// Spec order: destinations, test, my-reminder-channels, channel action, delivery history, outbox retry/reconcile.
export const routes: AnyRoute[] = [
  createDestination,
  testDestination,
  getMyReminderChannels,
  runMyReminderChannelAction,
  listDeliveryHistory,
  retryNotificationOutboxEntry,
  reconcileNotificationOutboxEntry,
];
