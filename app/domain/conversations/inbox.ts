// The inbox tabs (/directmessages), shared by the server and the page.
export const INBOX_TABS = ["unread", "read", "active", "snoozed"] as const;
export type InboxTab = (typeof INBOX_TABS)[number];
/** Tab labels count up to this many conversations each, then say "999+": cheap at any size. */
export const TAB_COUNT_CAP = 999;
