// The capability catalogue of contract §4 and how a member's effective set is computed.

export const ROLES = ["viewer", "operator", "manager", "admin", "owner"] as const;
export type Role = (typeof ROLES)[number];

const ALL: Role[] = [...ROLES];
const OPERATOR_UP: Role[] = ["operator", "manager", "admin", "owner"];
const MANAGER_UP: Role[] = ["manager", "admin", "owner"];
const ADMIN_UP: Role[] = ["admin", "owner"];

export const CAPABILITY_DEFAULTS = {
  ams_view: ALL,
  ams_operate: OPERATOR_UP,
  hub_assignee: OPERATOR_UP,
  ams_review: MANAGER_UP,
  finance_propose: MANAGER_UP,
  finance_approve: ADMIN_UP,
  policy_author: MANAGER_UP,
  policy_approve: ADMIN_UP,
  ams_admin: ADMIN_UP,
  planning_view: ALL,
  planning_edit: OPERATOR_UP,
  planning_review: MANAGER_UP,
  planning_apply: ADMIN_UP,
  planning_admin: ADMIN_UP,
} as const satisfies Record<string, Role[]>;

export type Capability = keyof typeof CAPABILITY_DEFAULTS;
export const CAPABILITIES = Object.keys(CAPABILITY_DEFAULTS) as Capability[];
export const AMS_CAPABILITIES: Capability[] = [
  "ams_view",
  "ams_operate",
  "hub_assignee",
  "ams_review",
  "finance_propose",
  "finance_approve",
  "policy_author",
  "policy_approve",
  "ams_admin",
];

export function isCapability(v: string): v is Capability {
  return Object.hasOwn(CAPABILITY_DEFAULTS, v);
}

/** A partner's capability configuration: role defaults (overrides applied) and grants. */
export interface CapabilityConfig {
  roleDefaults: Record<Capability, Role[]>;
  grants: Array<{ capability: Capability; userId: string; expiresAt: string | null }>;
}

export function effectiveCapabilities(config: CapabilityConfig, userId: string, role: Role, nowIso: string): Set<Capability> {
  const out = new Set<Capability>();
  for (const cap of CAPABILITIES) if (config.roleDefaults[cap].includes(role)) out.add(cap);
  for (const g of config.grants) {
    if (g.userId === userId && (g.expiresAt === null || g.expiresAt > nowIso)) out.add(g.capability);
  }
  return out;
}
