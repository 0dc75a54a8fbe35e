import { sqliteTable, text, primaryKey, index } from "drizzle-orm/sqlite-core";

export const partners = sqliteTable("partners", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  createdAt: text("created_at").notNull(),
});

/** user → partners index, so GET /api/me is one read. Mirrors memberships in partner DBs. */
export const userPartners = sqliteTable(
  "user_partners",
  {
    userId: text("user_id").notNull(),
    partnerId: text("partner_id").notNull().references(() => partners.id),
    role: text("role").notNull(),
    status: text("status").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.partnerId] }), index("user_partners_partner_idx").on(t.partnerId)],
);

export const DEVICE_TOKEN_STATES = ["active", "revoked"] as const;

/**
 * Global device-token digests → partner and device (SMS gateway): a device call
 * carries no partnerId, so its token's digest is how the service finds the partner.
 * Rotation and revocation mark old digests `revoked` (kept so a stale token is a
 * plain 401, never a lookup miss that could be retried elsewhere).
 */
export const deviceTokens = sqliteTable(
  "device_tokens",
  {
    digest: text("digest").primaryKey(),
    partnerId: text("partner_id").notNull().references(() => partners.id),
    deviceId: text("device_id").notNull(),
    state: text("state", { enum: DEVICE_TOKEN_STATES }).notNull().default("active"),
    createdAt: text("created_at").notNull(),
    revokedAt: text("revoked_at"),
  },
  (t) => [index("device_tokens_device_idx").on(t.partnerId, t.deviceId)],
);
