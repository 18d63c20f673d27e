// Feed display rules, shared by the server render and the browser (polling): pure functions.

export const FEED_TEXT_MAX = 70;
/** How many unread summaries the home panel lists (the tile has the full count). */
export const UNREAD_SHOWN = 5;

/** Message text cut at 70 characters plus an ellipsis; whole characters, never half a surrogate pair. */
export function truncateText(text: string, max = FEED_TEXT_MAX): string {
  const chars = Array.from(text.replace(/\s+/g, " ").trim());
  return chars.length > max ? `${chars.slice(0, max).join("").trimEnd()}…` : chars.join("");
}

// UK dates live in ~/lib/uk-time; re-exported for pages not yet pointed there (mycommunity, newgroupmessage.preview).
export { formatLongDate } from "~/lib/uk-time";
