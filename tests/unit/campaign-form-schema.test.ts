// The campaign pages' form schema: the posted form (UK date and time fields, "now or later", nine option inputs
// with blanks) becomes the model's input, and each error lands on the field a person filled in.
import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { campaignFormSchema, formToInput, optionSlots } from "~/components/campaign-form-schema";
import type { CampaignTypeName } from "~/domain/campaigns/model";

function parse(type: CampaignTypeName, fields: Record<string, string>) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return parseWithZod(form, { schema: campaignFormSchema(type) });
}

const poll = {
  name: "Lunch vote",
  messageText: "What shall we have on Friday?",
  contactGroupId: "-1",
  issueMode: "NOW",
  issueDate: "2030-01-01",
  issueTime: "09:00",
  closeDate: "2030-07-01",
  closeTime: "18:00",
  "responseOptions[0]": "Pizza",
  "responseOptions[1]": "",
  "responseOptions[2]": "Curry",
  "responseOptions[3]": "",
};

describe("campaign form schema", () => {
  it("turns UK summer time into the UTC instant, sends now when asked, and leaves blank options out", () => {
    const result = parse("POLL", poll);
    expect(result.status).toBe("success");
    if (result.status !== "success") return;
    expect(result.value).toMatchObject({ type: "POLL", name: "Lunch vote", contactGroupId: -1, issueDate: null, closeDate: "2030-07-01T17:00:00.000Z", responseOptions: ["Pizza", "Curry"] });
  });

  it("takes the issue date and time when the campaign is sent later, in GMT in winter", () => {
    const result = parse("POLL", { ...poll, issueMode: "LATER" });
    expect(result.status === "success" && result.value.issueDate).toBe("2030-01-01T09:00:00.000Z");
  });

  it("puts each refusal on its own field: a half-filled date, a missing close date, duplicate options, a reserved keyword, a long name", () => {
    const late = parse("POLL", { ...poll, issueMode: "LATER", issueTime: "" });
    expect(late.reply().error?.issueDate).toEqual(["campaigns.errors.date"]);
    const unreal = parse("POLL", { ...poll, closeDate: "2030-02-31" });
    expect(unreal.reply().error?.closeDate).toEqual(["campaigns.errors.date"]);
    const noClose = parse("POLL", { ...poll, closeDate: "", closeTime: "" });
    expect(noClose.reply().error?.closeDate).toEqual(["campaigns.errors.closeRequired"]);
    const same = parse("POLL", { ...poll, "responseOptions[1]": "pizza" });
    expect(same.reply().error?.responseOptions).toEqual(["campaigns.errors.optionsDiffer"]);
    const one = parse("POLL", { ...poll, "responseOptions[2]": "" });
    expect(one.reply().error?.responseOptions).toEqual(["campaigns.errors.optionsCount"]);
    const reserved = parse("POLL", { ...poll, keyword: "stop" });
    expect(reserved.reply().error?.keyword).toEqual(["errors.BR017"]);
    const long = parse("POLL", { ...poll, name: "x".repeat(41) });
    expect(long.reply().error?.name).toEqual(["validation.tooLongShort"]);
    const missing = parse("POLL", { ...poll, name: "", messageText: "" });
    expect(missing.reply().error).toMatchObject({ name: ["validation.required"], messageText: ["validation.required"] });
  });

  it("reads an invitation's checkboxes and empty capacity, and goes back to YES and NO when both reply words are cleared", () => {
    const result = parse("INVITATION", {
      name: "Summer party",
      messageText: "Join us",
      acceptText: "See you there",
      declineText: "Maybe next time",
      contactGroupId: "-1",
      closeDate: "2030-07-01",
      closeTime: "18:00",
      capacity: "",
      allowPartySize: "on",
      "responseOptions[0]": "",
      "responseOptions[1]": "",
    });
    expect(result.status).toBe("success");
    if (result.status !== "success") return;
    expect(result.value).toMatchObject({ capacity: null, allowPartySize: true, remindDayBefore: false, responseOptions: ["YES", "NO"], eventDate: null });
  });

  it("asks a draw for its winners and draw date, and keeps the empty-group confirmation", () => {
    const bad = parse("PICKWINNERS", { name: "Prize", entrySource: "GROUP", contactGroupId: "3", numberWinnersToPick: "0", closeDate: "", closeTime: "" });
    expect(bad.reply().error).toMatchObject({ numberWinnersToPick: ["campaigns.errors.winners"], closeDate: ["campaigns.errors.drawRequired"] });
    const good = parse("PICKWINNERS", { name: "Prize", entrySource: "GROUP", contactGroupId: "3", numberWinnersToPick: "2", closeDate: "2030-07-01", closeTime: "18:00", confirmEmptyGroup: "on" });
    expect(good.status === "success" && good.value).toMatchObject({ contactGroupId: 3, numberWinnersToPick: 2, excludeWinnersDays: 0, confirmEmptyGroup: true });
  });

  it("lines the options up with the errors: given values first, then blanks", () => {
    expect(optionSlots(["", "A", "", "B"], 4)).toEqual(["A", "B", "", ""]);
    expect(optionSlots(undefined, 2)).toEqual(["", ""]);
    expect(formToInput("BOUNCEBACK", { keyword: "hi", issueMode: "LATER", issueDate: "", issueTime: "" })).toMatchObject({ type: "BOUNCEBACK", issueDate: "invalid" });
  });
});
