// Insurance policies, coverages and claims.
import { sqliteTable, text, integer, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { items } from "../../kernel/kernel.tables.ts";

/** An insurance policy; it covers assets only once approved by a member other than its creator. */
export const financeInsurancePolicies = sqliteTable(
  "finance_insurance_policies",
  {
    id: text("id").primaryKey(),
    insurer: text("insurer").notNull(),
    policyNumber: text("policy_number").notNull(),
    currency: text("currency").notNull(),
    premium: text("premium").notNull(),
    startsOn: text("starts_on").notNull(),
    endsOn: text("ends_on").notNull(),
    state: text("state", { enum: ["pending", "approved"] }).notNull(),
    approvedBy: text("approved_by"),
    approvedAt: text("approved_at"),
    approvalReason: text("approval_reason"),
    version: integer("version").notNull().default(1),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [uniqueIndex("finance_insurance_policies_number_uq").on(t.insurer, t.policyNumber)],
);

/** An asset insured under an approved policy for a sum; once per policy and asset. */
export const financeCoverages = sqliteTable(
  "finance_coverages",
  {
    id: text("id").primaryKey(),
    policyId: text("policy_id")
      .notNull()
      .references(() => financeInsurancePolicies.id),
    itemId: text("item_id")
      .notNull()
      .references(() => items.id),
    sumInsured: text("sum_insured").notNull(),
    currency: text("currency").notNull(),
    createdAt: text("created_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  (t) => [uniqueIndex("finance_coverages_policy_item_uq").on(t.policyId, t.itemId), index("finance_coverages_item_idx").on(t.itemId)],
);

/** A claim for a loss of a covered asset, against the coverage in force on the incident date. */
export const financeInsuranceClaims = sqliteTable(
  "finance_insurance_claims",
  {
    id: text("id").primaryKey(),
    coverageId: text("coverage_id")
      .notNull()
      .references(() => financeCoverages.id),
    policyId: text("policy_id")
      .notNull()
      .references(() => financeInsurancePolicies.id),
    itemId: text("item_id")
      .notNull()
      .references(() => items.id),
    incidentDate: text("incident_date").notNull(),
    amountClaimed: text("amount_claimed").notNull(),
    currency: text("currency").notNull(),
    description: text("description").notNull(),
    state: text("state", { enum: ["submitted"] }).notNull(),
    createdAt: text("created_at").notNull(),
    createdBy: text("created_by").notNull(),
  },
  // item_id: deleting a pending import's items checks this foreign key. No coverage_id index:
  // claims are only inserted and coverages are never deleted.
  (t) => [index("finance_insurance_claims_item_idx").on(t.itemId)],
);
