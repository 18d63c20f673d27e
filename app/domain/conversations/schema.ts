// Form schemas for the DM screens, shared by browser and server (messages are i18n keys).
import { z } from "zod";
import { MAX_MESSAGE_CHARACTERS } from "~/domain/messaging/segments";

const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

/** Message text must be populated; at most 1,600 characters; no control characters. */
export const messageText = z
  .string({ error: "validation.required" })
  .refine((v) => v.trim().length > 0, "validation.required")
  .refine((v) => v.replace(/\r\n?/g, "\n").length <= MAX_MESSAGE_CHARACTERS, "messaging.preview.tooLong")
  .refine((v) => !CONTROL.test(v), "validation.controlChars");

/** A random token per form render: a double submission creates one message. */
export const sendToken = z.string().trim().regex(/^[A-Za-z0-9_-]{8,64}$/, "errors.BR025");

export const replySchema = z.object({ intent: z.literal("reply"), text: messageText, token: sendToken });
export const snoozeSchema = z.object({ intent: z.literal("snooze"), until: z.string({ error: "validation.required" }).trim().min(1, "validation.required").max(40, "validation.tooLongShort") });
export const newDmSchema = z.object({ memberId: z.coerce.number({ error: "errors.BR025" }).int().positive("errors.BR025"), text: messageText, token: sendToken });
