// Every campaign type, registered in one place. Adding a type is one module in ./types and one line here.
import type { CampaignTypeName } from "./model";
import type { CampaignType } from "./type";
import { bounceback } from "./types/bounceback";
import { oneQuestion } from "./types/one-question";
import { poll } from "./types/poll";
import { invitation } from "./types/invitation";
import { pickWinners } from "./types/pick-winners";

const TYPES: { [T in CampaignTypeName]: CampaignType<T> } = {
  BOUNCEBACK: bounceback,
  ONEQUESTION: oneQuestion,
  POLL: poll,
  INVITATION: invitation,
  PICKWINNERS: pickWinners,
};

export function campaignType(type: CampaignTypeName): CampaignType {
  return TYPES[type] as unknown as CampaignType;
}
