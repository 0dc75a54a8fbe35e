import { sqliteTable, text, integer, index } from "drizzle-orm/sqlite-core";

/**
 * A partner's webhook endpoint. The signing secret is stored only encrypted
 * (AES-256-GCM under AMS_WEBHOOK_ENCRYPTION_KEY, the endpoint id as associated data).
 * `outboxCursor` is the rowid of the last outbox event fanned out to this endpoint:
 * the outbox rowid is the commit order of events, so deliveries keep event order.
 */
export const webhookEndpoints = sqliteTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(),
    url: text("url").notNull(),
    events: text("events", { mode: "json" }).$type<string[]>().notNull(),
    enabled: integer("enabled", { mode: "boolean" }).notNull(),
    secretCiphertext: text("secret_ciphertext").notNull(),
    /** Why the service disabled it: `gone` (a 410 answer) or `failing` (5 days of failed attempts); null when a user did. */
    disabledReason: text("disabled_reason", { enum: ["gone", "failing"] }),
    disabledAt: text("disabled_at"),
    /** Time of the first failed attempt since the last success; null while healthy. */
    failingSince: text("failing_since"),
    outboxCursor: integer("outbox_cursor").notNull(),
    version: integer("version").notNull().default(1),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [index("webhook_endpoints_page_idx").on(t.updatedAt, t.id), index("webhook_endpoints_enabled_idx").on(t.enabled)],
);

/**
 * One delivery per endpoint and event; its id is the X-SVC-AMS-Delivery header and
 * never changes across retries. `body` is the exact bytes signed and sent each time.
 * `outboxSeq` is the event's outbox rowid (null for a test delivery), the order key.
 */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    endpointId: text("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id),
    eventId: text("event_id").notNull(),
    eventType: text("event_type").notNull(),
    outboxSeq: integer("outbox_seq"),
    body: text("body").notNull(),
    status: text("status", { enum: ["pending", "succeeded", "failed"] }).notNull(),
    /** Attempts made so far. */
    attempts: integer("attempts").notNull(),
    nextAttemptAt: text("next_attempt_at"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    // The head of an endpoint's queue: its oldest pending delivery.
    index("webhook_deliveries_queue_idx").on(t.endpointId, t.status, t.outboxSeq),
    index("webhook_deliveries_retention_idx").on(t.status, t.updatedAt),
  ],
);

/** Every attempt of a delivery, append-only: what GET /webhooks/{id}/deliveries pages through. */
export const webhookAttempts = sqliteTable(
  "webhook_attempts",
  {
    id: text("id").primaryKey(),
    deliveryId: text("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id),
    endpointId: text("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id),
    attempt: integer("attempt").notNull(),
    recordedAt: text("recorded_at").notNull(),
    statusCode: integer("status_code"),
    durationMs: integer("duration_ms").notNull(),
    /** succeeded, retrying (nextAttemptAt set) or failed (the last attempt, or a 410). */
    outcome: text("outcome", { enum: ["succeeded", "retrying", "failed"] }).notNull(),
    /** Why a failure had no usable status: timeout, network, address_refused. */
    error: text("error"),
    nextAttemptAt: text("next_attempt_at"),
  },
  (t) => [
    index("webhook_attempts_page_idx").on(t.endpointId, t.recordedAt, t.id),
    index("webhook_attempts_delivery_idx").on(t.deliveryId),
  ],
);
