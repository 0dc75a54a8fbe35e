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

/** Global device-token digests → partner and device (SMS gateway). */
export const deviceTokens = sqliteTable("device_tokens", {
  digest: text("digest").primaryKey(),
  partnerId: text("partner_id").notNull().references(() => partners.id),
  deviceId: text("device_id").notNull(),
  createdAt: text("created_at").notNull(),
});
