// Usage tracking: one row per action ('view:<page title>', 'start_trial', 'purchase_subscription'
// or a custom event name), kept against the business and user that sent it.
import type { Database } from "#db/index";
import { AppError } from "~/lib/errors";

export const TRACK_ACTION_MAX = 200;
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

// Page titles and event names never contain markup; refusing it keeps stored actions safe to show.
const MARKUP = /[<>]/;

/** Whether a tracking action is acceptable: 1 to 200 characters, no control characters, no markup. */
export function isTrackAction(action: unknown): action is string {
  return typeof action === "string" && action.trim().length > 0 && [...action].length <= TRACK_ACTION_MAX && !CONTROL.test(action) && !MARKUP.test(action);
}

export async function recordTrackEvent(db: Database, caller: { userId: number; businessId: number }, action: string, now: Date): Promise<void> {
  if (!isTrackAction(action)) throw new AppError("BR025", undefined, { field: "action" });
  await db
    .insertInto("track_events")
    .values({ business_id: caller.businessId, user_id: caller.userId, action: action.trim(), created_at: now.toISOString() })
    .execute();
}
