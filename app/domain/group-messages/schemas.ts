// Form schemas shared by the group-message pages (browser and server): the text (must be
// populated, at most 1,600 characters, cleaned to plain text) and when to send (now, or a UK date
// and time; the future check is the server's, BR013).
import { z } from "zod";
import { analyse } from "~/domain/messaging/segments";
import { cleanMessageText, GROUP_TEXT_MAX } from "./text";
import { ukLocalToUtc } from "./uk-time";

export const textSchema = z
  .string({ error: "groupmessages.errors.textRequired" })
  .max(GROUP_TEXT_MAX * 4, "groupmessages.errors.tooLong")
  .transform(cleanMessageText)
  .refine((v) => v.trim().length > 0, "groupmessages.errors.textRequired")
  .refine((v) => analyse(v).characters <= GROUP_TEXT_MAX, "groupmessages.errors.tooLong");

export const whenSchema = {
  sendMode: z.enum(["NOW", "LATER"], { error: "groupmessages.errors.dateRequired" }).default("NOW"),
  sendDate: z.string().max(10, "groupmessages.errors.dateRequired").optional(),
  sendTime: z.string().max(5, "groupmessages.errors.dateRequired").optional(),
};

/** A LATER send needs a real date and time. */
export function checkWhen(v: { sendMode: "NOW" | "LATER"; sendDate?: string; sendTime?: string }, ctx: z.RefinementCtx) {
  if (v.sendMode === "LATER" && !ukLocalToUtc(v.sendDate ?? "", v.sendTime ?? "")) {
    ctx.addIssue({ code: "custom", path: ["sendDate"], message: "groupmessages.errors.dateRequired" });
  }
}
