import { z } from "@hono/zod-openapi";
import { ExpectedVersion, Id, RecordMeta, Timestamp } from "../../platform/http/common-schemas.ts";
import { listEnvelope, PageQueryShape } from "../../platform/paging/paging.ts";
import { EVENT_KINDS } from "../../platform/outbox/outbox.ts";

const Url = z
  .string()
  .min(1)
  .max(2048)
  .regex(/^\S+$/, "must not contain whitespace")
  .openapi({
    format: "uri",
    description:
      "https (http only with WEBHOOK_ALLOW_PRIVATE=1), no credentials or fragment; the host must resolve, and every address it resolves to must be public unless WEBHOOK_ALLOW_PRIVATE=1: no loopback, private, CGNAT, link-local (metadata), unique-local, multicast, documentation or reserved range, nor an IPv6 form carrying such an IPv4 (IPv4-mapped, -compatible, -translated, 6to4, Teredo, NAT64 64:ff9b::/96; the local-use NAT64 64:ff9b:1::/48 is refused whole). Checked again before every attempt, which connects to the first address of that same answer (no second lookup); Host, SNI and the certificate check use the URL's name.",
    example: "https://hooks.example.com/ams",
  });

const Events = z
  .array(z.enum(EVENT_KINDS))
  .min(1)
  .max(EVENT_KINDS.length)
  .transform((a) => [...new Set(a)])
  .openapi({ description: "Event kinds (contract §10) delivered to this endpoint (a repeated kind counts once); test deliveries are sent whatever is chosen." });

export const WebhookEndpoint = z
  .object({
    ...RecordMeta,
    url: z.string(),
    events: z.array(z.enum(EVENT_KINDS)),
    enabled: z.boolean(),
    disabledReason: z
      .enum(["gone", "failing"])
      .nullable()
      .openapi({ description: "Why the service disabled the endpoint: `gone` (it answered 410), `failing` (every attempt failed for 5 days); null otherwise." }),
    disabledAt: Timestamp.nullable(),
    failingSince: Timestamp.nullable().openapi({ description: "First failed attempt since the last success; null while deliveries succeed." }),
    version: z.number().int(),
  })
  .openapi("WebhookEndpoint");

export const CreatedWebhookEndpoint = WebhookEndpoint.extend({
  secret: z.string().openapi({
    description:
      "The signing secret, shown only in this response. X-SVC-AMS-Signature is `v1=` + hex HMAC-SHA256 keyed with this string's UTF-8 bytes over `<X-SVC-AMS-Timestamp>.<X-SVC-AMS-Delivery>.<raw body>`.",
  }),
}).openapi("CreatedWebhookEndpoint");

export const CreateWebhook = z
  .strictObject({
    url: Url,
    events: Events,
    enabled: z.boolean().optional().openapi({ description: "Default true" }),
  })
  .openapi("CreateWebhook");

export const ReplaceWebhook = z
  .strictObject({
    url: Url,
    events: Events,
    enabled: z.boolean(),
    expectedVersion: ExpectedVersion.optional(),
  })
  .openapi("ReplaceWebhook");

export const TestWebhook = z.strictObject({}).openapi("TestWebhook");

export const ListWebhooksQuery = z.strictObject({ ...PageQueryShape });
export const WebhookEndpointList = listEnvelope(WebhookEndpoint, "WebhookEndpointList");

export const WebhookAttempt = z
  .object({
    id: Id,
    deliveryId: Id.openapi({ description: "X-SVC-AMS-Delivery: the same on every attempt of one delivery" }),
    eventId: z.string(),
    eventType: z.enum(EVENT_KINDS),
    attempt: z.number().int().openapi({ description: "1 for the first attempt" }),
    recordedAt: Timestamp,
    statusCode: z.number().int().nullable().openapi({ description: "The receiver's HTTP status; null on timeout, network error or a refused address" }),
    durationMs: z.number().int(),
    outcome: z.enum(["succeeded", "retrying", "failed"]),
    error: z
      .enum(["timeout", "network", "address_refused"])
      .nullable()
      .openapi({
        description:
          "Why no status: `timeout` (10 s), `network` (connection, TLS handshake or certificate failure), `address_refused` (the host did not resolve, or resolved to an address webhooks may not reach, at this attempt's check; nothing was sent)",
      }),
    nextAttemptAt: Timestamp.nullable().openapi({ description: "When the delivery is retried (outcome retrying); null otherwise" }),
  })
  .openapi("WebhookAttempt");

export const ListWebhookDeliveriesQuery = z.strictObject({
  deliveryId: Id.optional().openapi({ description: "Only the attempts of this delivery" }),
  ...PageQueryShape,
});
export const WebhookAttemptList = listEnvelope(WebhookAttempt, "WebhookAttemptList");
