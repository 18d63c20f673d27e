// The app's navigation in one list. Each entry is a screen people reach from the shell; the shell
// only shows an entry once the app has a route at its path (checked against the server build), so
// a screen that another piece of work will build can be listed here ahead of time and appears, never
// as a dead link, the day its route lands. Labels are i18n keys: nav.items.<id>.
import type { Permission } from "~/domain/accounts/permissions";

export interface NavItem {
  /** Stable id; also the label key nav.items.<id>. */
  id: string;
  /** Where the entry leads. */
  to: string;
  /** An icon name from components/ui.tsx. */
  icon: string;
  /** "bar": the main entries (top bar on a desktop, bottom bar on a phone); "more": under More. */
  place: "bar" | "more";
  /** Other path prefixes that belong to this entry, so it is marked as the current page there too. */
  section?: readonly string[];
  /** Shown only to roles holding this permission. */
  permission?: Permission;
  /** Shows the unread direct-message count. */
  badge?: "unread";
}

export const NAV_ITEMS: readonly NavItem[] = [
  { id: "home", to: "/", icon: "home", place: "bar" },
  { id: "messages", to: "/directmessages", icon: "message", place: "bar", badge: "unread", section: ["/member/messages", "/newdirectmessage"] },
  { id: "members", to: "/mycommunity", icon: "group", place: "bar", section: ["/memberinfo", "/invitemember", "/memberattributes"] },
  {
    id: "groups",
    to: "/groups",
    icon: "groups",
    place: "bar",
    section: ["/contactgroup", "/smartgroup", "/newgroupmessage", "/groupmessage", "/allgroupmessages"],
  },
  {
    id: "campaigns",
    to: "/campaigns",
    icon: "campaign",
    place: "bar",
    section: ["/newcampaign", "/viewcampaign", "/bounceback", "/onequestion", "/quickpoll", "/invitation", "/pickwinners"],
  },
  { id: "account", to: "/myaccount", icon: "user", place: "more", section: ["/manageintegrations"] },
  { id: "joinUs", to: "/joinus", icon: "qr", place: "more" },
  { id: "plan", to: "/subscription", icon: "card", place: "more", section: ["/paymenthistory", "/changesubscription"], permission: "subscription:change" },
  { id: "team", to: "/manageteam", icon: "team", place: "more", permission: "team:manage" },
  { id: "help", to: "/helpcentre", icon: "help", place: "more" },
  { id: "chat", to: "/agentchat", icon: "message", place: "more" },
  { id: "analytics", to: "/analytics", icon: "chart", place: "more" },
];

/**
 * Screens linked from other places than the navigation (the home page) that may not exist yet.
 * Their links are only drawn once the route exists.
 */
export const LINKED_SCREENS = ["/subscription", "/campaigns", "/newcampaign", "/viewcampaign", "/helpcentre/getstarted", "/checkinqrcode", "/customerexpqrcode", "/checkinexport", "/manageintegrations", "/manageintegrations/apikeys", "/manageintegrations/webhooks", "/analytics"] as const;

/** Every path whose existence the shell checks. */
export const CHECKED_SCREENS: readonly string[] = [...new Set([...NAV_ITEMS.map((i) => i.to), ...LINKED_SCREENS])];

/** True when `pathname` is the entry's page or one of its section's pages. */
export function isCurrent(item: NavItem, pathname: string): boolean {
  const under = (prefix: string) => pathname === prefix || pathname.startsWith(`${prefix}/`);
  if (item.to === "/") return pathname === "/";
  return under(item.to) || (item.section ?? []).some(under);
}

/** What the signed-in shell needs from the server. */
export interface ShellData {
  name: string;
  companyName: string;
  /** Unread direct messages, for the Messages entry. */
  unread: number;
  /** Ids of the entries this user sees (their screen exists and their role may use it). */
  items: string[];
  /** The subset of CHECKED_SCREENS that exists in this build. */
  screens: string[];
}
