// Who may do what. Two roles: the Administrator (the business owner) may do everything; a Team
// Member replies to DMs and manages campaigns, members and attributes. Only the Administrator manages
// the team, the subscription, API keys, integrations and the business's own settings (the default
// opt-in and opt-out texts and the join keyword). A refusal is FB001 with HTTP 403.
//
// Pages declare what they need in their route handle (`permission` for the whole page,
// `actionPermission` for its form posts only); the signed-in layout checks it before any loader or
// action runs. /api/ handlers declare it per method (apiHandler). Domain code can call
// requirePermission itself where a rule belongs to the operation rather than to a screen.
import { AppError } from "~/lib/errors";

export type Role = "ADMIN" | "TEAM";

/** Every permission, with the roles that hold it. */
export const PERMISSION_ROLES = {
  /** Invite, view and remove team members. */
  "team:manage": ["ADMIN"],
  /** Activate, change or cancel the monthly subscription; payment history. */
  "subscription:change": ["ADMIN"],
  /** Create and revoke API keys. */
  "apikeys:manage": ["ADMIN"],
  /** Connect and disconnect integrations (the shop's discount codes). */
  "integrations:manage": ["ADMIN"],
  /** The business's settings: default opt-in and opt-out texts, join keyword. */
  "settings:manage": ["ADMIN"],
  /** Members: invite, edit, import, export, opt out; list and smart groups. */
  "members:manage": ["ADMIN", "TEAM"],
  /** Custom member attributes. */
  "attributes:manage": ["ADMIN", "TEAM"],
  /** Campaigns and group messages. */
  "campaigns:manage": ["ADMIN", "TEAM"],
  /** Read and reply to direct messages. */
  "messages:reply": ["ADMIN", "TEAM"],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSION_ROLES;

export const PERMISSIONS = Object.keys(PERMISSION_ROLES) as Permission[];

export function isPermission(value: unknown): value is Permission {
  return typeof value === "string" && Object.prototype.hasOwnProperty.call(PERMISSION_ROLES, value);
}

/** True when the user's role holds the permission. An unknown role holds nothing. */
export function can(user: { role: string } | null | undefined, permission: Permission): boolean {
  if (!user) return false;
  const roles: readonly string[] = PERMISSION_ROLES[permission];
  return roles.includes(user.role);
}

/** Throws FB001 (403) unless the user's role holds the permission. */
export function requirePermission(user: { role: string } | null | undefined, permission: Permission): void {
  if (!can(user, permission)) throw new AppError("FB001", undefined, { status: 403 });
}

/** What a route handle may declare about permissions. */
export interface PermissionHandle {
  /** Needed to reach the page at all (every method). */
  permission?: Permission;
  /** Needed to post to the page (its actions); reading it stays open. */
  actionPermission?: Permission;
}

/** The permissions a request to a route with these handles needs (GET and HEAD read; anything else acts). */
export function permissionsFor(handles: ReadonlyArray<PermissionHandle | null | undefined>, method: string): Permission[] {
  const reads = method === "GET" || method === "HEAD";
  const needed = new Set<Permission>();
  for (const h of handles) {
    if (!h) continue;
    if (isPermission(h.permission)) needed.add(h.permission);
    if (!reads && isPermission(h.actionPermission)) needed.add(h.actionPermission);
  }
  return [...needed];
}
