// Compose-time checks on a text: merge tags that would not be filled in are found with the closest known tag,
// and marketing texts get the opt-out line when they lack a way to stop.
import { describe, expect, it } from "vitest";
import { mentionsStop, unknownTags, withOptOutLine } from "~/domain/messaging/merge";

describe("unknown merge tags", () => {
  it.each([
    ["Hi {{firstname}}", "{{firstname}}", "{{firstName}}"],
    ["Hi {{ first_name }}", "{{ first_name }}", "{{firstName}}"],
    ["Hi {{FirstName|there}}", "{{FirstName|there}}", "{{firstName}}"],
    ["From {{bussinessName}}", "{{bussinessName}}", "{{businessName}}"],
    ["See {{memberformlink}}", "{{memberformlink}}", "{{memberFormLink}}"],
    ["Hello {{nosuchtag}}", "{{nosuchtag}}", null],
    ["Cake: {{attr.favouriteCak}}", "{{attr.favouriteCak}}", "{{attr.favouriteCake}}"],
  ])("%s", (text, written, suggestion) => {
    expect(unknownTags(text, ["favouriteCake"])).toEqual([{ written, suggestion }]);
  });

  it("accepts every known tag, with or without a fallback, and custom tags of the business", () => {
    expect(unknownTags("Hi {{firstName|there}} {{fullName}} {{businessName}} {{businessNumber}} {{joinKeyword}} {{birthday}} {{appointmentDate}} {{appointmentTime}} {{memberFormLink}} {{attr.favouriteCake}}", ["favouriteCake"])).toEqual([]);
    expect(unknownTags("no tags at all { not one }")).toEqual([]);
    // Without the business's keys, custom tags are not judged.
    expect(unknownTags("{{attr.anything}}")).toEqual([]);
  });
});

describe("the opt-out line on marketing texts", () => {
  it("adds the line in the business's language when the text has no way to stop", () => {
    expect(withOptOutLine("Fresh bread today!", "en-GB")).toEqual({ body: "Fresh bread today!\nReply STOP to opt out", added: true });
    expect(withOptOutLine("Pain frais aujourd'hui  ", "fr")).toEqual({ body: "Pain frais aujourd'hui\nRépondez STOP pour vous désabonner", added: true });
  });

  it("leaves a text that already says how to stop", () => {
    for (const t of ["Offer! Reply STOP to opt out", "Text stop to leave", "Répondez ARRÊT", "(STOP)"]) {
      expect(mentionsStop(t)).toBe(true);
      expect(withOptOutLine(t, "en-GB").added).toBe(false);
    }
    expect(mentionsStop("Our bus stops here")).toBe(false);
    expect(mentionsStop("Non-stop deals")).toBe(false);
  });
});
