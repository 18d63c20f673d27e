// Reusable zod field schemas (shared by browser and server). Messages are i18n keys; <Field> translates
// them with the field's label ({{field}}) and any bounds, following the form input rules.
import { z } from "zod";

export const SHORT_MAX = 40;
export const LONG_MAX = 5000;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 50;

// C0 controls except tab/newline/carriage return, DEL, and the C1 range.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
const COMPANY = /^[\p{L}\p{N} &'’.,()\-]+$/u;
const PERSON = /^[\p{L} '’.\-]+$/u;

/** A required single-line text of at most `max` characters with no control characters. */
export function requiredText(max = SHORT_MAX) {
  return z
    .string({ error: "validation.required" })
    .trim()
    .min(1, "validation.required")
    .max(max, max === SHORT_MAX ? "validation.tooLongShort" : "validation.tooLongLong")
    .refine((v) => !CONTROL.test(v), "validation.controlChars");
}

export const companyName = requiredText().refine((v) => COMPANY.test(v), "errors.BR022");
export const personName = requiredText().refine((v) => PERSON.test(v), "errors.BR022");
export const email = z
  .string({ error: "validation.required" })
  .trim()
  .toLowerCase()
  .max(254, "validation.email")
  .pipe(z.email("validation.email"));

export const password = z
  .string({ error: "validation.required" })
  .min(PASSWORD_MIN, "errors.BR023")
  .max(PASSWORD_MAX, "errors.BR023")
  .refine((v) => /[a-z]/.test(v) && /[A-Z]/.test(v) && /[0-9]/.test(v), "errors.BR023");

export const verificationCode = z
  .string({ error: "validation.codeRequired" })
  .trim()
  .regex(/^[0-9]{6}$/, "errors.BR008");

/** The phone field: typed characters and length are checked here; the number itself on the server. */
export const phoneInput = z
  .string({ error: "validation.required" })
  .trim()
  .max(25, "validation.phone")
  .regex(/^[0-9+()\-\s]+$/, "validation.phone");
