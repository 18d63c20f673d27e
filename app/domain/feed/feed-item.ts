// The feed item shape (spec section 3): one type for every panel on the home feed and /api/feed.
export type FeedItemType =
  | "UNREADMESSAGES" | "INFO" | "HELPCENTRE" | "CHATSESSION" | "BROADCASTMESSAGE" | "ONEQUESTION" | "POLL"
  | "INVITATION" | "BOUNCEBACK" | "REMINDER" | "BIRTHDAYGREETING" | "CUSTOMEREXP" | "CHECKIN" | "POSTREGISTRATION" | "PICKWINNERS";

export interface FeedItem {
  type: FeedItemType;
  id: string;
  name?: string;
  status?: string;
  messageText?: string;
  contactGroupId?: number;
  contactGroupName?: string;
  contactGroupCount?: number;
  totalSent?: number;
  totalReceived?: number;
  totalToday?: number;
  totalYesterday?: number;
  totalMonth?: number;
  lastInteraction?: string;
  nextSending?: string;
  closeDate?: string;
  numberWinnersToPick?: number;
  responses?: { response: string; total: number }[];
  errorMessage?: string;
  promoters?: number;
  passives?: number;
  detractors?: number;
  currentScore?: number;
  previousScore?: number;
}

