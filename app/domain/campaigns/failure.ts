// A campaign that cannot run ends FAILED with one of the spec's SURVEYERROR_* reasons.
import type { FailureCode } from "./model";

export class CampaignFailure extends Error {
  constructor(readonly code: FailureCode) {
    super(code);
    this.name = "CampaignFailure";
  }
}
