// Message text as typed or pasted: cleaned to plain text (pasted rich text becomes plain text).
// Pure; the browser runs the same cleaning on paste and the server on every submission.

/** Zero-width and bidi control characters that paste along from web pages and documents. */
const INVISIBLE = /[\u200B\u200C\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u00AD]/g;
/** C0 controls except tab and newline, DEL and C1 controls. */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;

export const GROUP_TEXT_MAX = 1600;

export function cleanMessageText(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .replace(/\u00A0/g, " ")
    .replace(/[\u2028\u2029]/g, "\n")
    .replace(INVISIBLE, "")
    .replace(CONTROL, "")
    .replace(/\n{3,}/g, "\n\n");
}
