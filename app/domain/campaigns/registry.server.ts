// Every campaign type, registered in one place. Adding a type is one module in ./types and one line here.
import type { CampaignTypeName } from "./model";
import type { CampaignType } from "./type";
import { bounceback } from "./types/bounceback";
import { oneQuestion } from "./types/one-question";
import { poll } from "./types/poll";
import { invitation } from "./types/invitation";
import { pickWinners } from "./types/pick-winners";
import { birthday } from "./types/birthday";
import { reminder } from "./types/reminder";
import { postRegistration } from "./types/post-registration";
import { customerExperience } from "./types/customer-experience";
import { checkin } from "./types/checkin";

const TYPES: { [T in CampaignTypeName]: CampaignType<T> } = {
  BOUNCEBACK: bounceback,
  ONEQUESTION: oneQuestion,
  POLL: poll,
  INVITATION: invitation,
  PICKWINNERS: pickWinners,
  BIRTHDAYGREETING: birthday,
  REMINDER: reminder,
  POSTREGISTRATION: postRegistration,
  CUSTOMEREXP: customerExperience,
  CHECKIN: checkin,
};

export function campaignType(type: CampaignTypeName): CampaignType {
  return TYPES[type] as unknown as CampaignType;
}
