// Pure attribute rules shared by the browser (form validation) and the server.
import type { AttributeType } from "#db/types";

export const ATTRIBUTE_TYPES = ["TEXT", "NUMBER", "DATE", "TIME", "BIRTHDAY", "NOTE", "LIST"] as const satisfies readonly AttributeType[];

/** The default attributes (read-only on /memberattributes): i18n key suffix, merge tag, type. */
export const DEFAULT_ATTRIBUTES = [
  { key: "firstName", type: "TEXT" },
  { key: "fullName", type: "TEXT" },
  { key: "birthday", type: "BIRTHDAY" },
  { key: "appointment", type: "DATE" },
  { key: "note", type: "NOTE" },
  { key: "memberLastUpdated", type: "DATE" },
] as const;

/** A merge-tag style key from a name: "Favourite drink" -> "favouriteDrink". */
export function attributeKey(name: string): string {
  const words = name
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9]+/g, " ")
    .trim()
    .toLowerCase()
    .split(" ")
    .filter(Boolean);
  const key = words.map((w, i) => (i === 0 ? w : w[0].toUpperCase() + w.slice(1))).join("");
  return /^[a-z]/.test(key) ? key : `a${key}`;
}


/** Names a custom attribute cannot take: the default attributes and merge tags, in English and French. */
const RESERVED = new Set(
  [
    "first name", "full name", "name", "birthday", "appointment", "appointment date and time", "appointment date", "note", "notes",
    "member last updated", "last updated", "business name", "company name", "member form link", "checkout link", "mobile number",
    "phone", "phone number", "mobile", "status", "joined", "invited", "prénom", "nom", "nom complet", "anniversaire", "rendez-vous",
    "firstname", "fullname", "businessname", "memberformlink", "checkoutlink", "memberlastupdated",
  ].map(normalName),
);

export function normalName(name: string): string {
  return name
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\s_\-]+/g, " ")
    .trim();
}

export function isReservedName(name: string): boolean {
  const n = normalName(name);
  return RESERVED.has(n) || RESERVED.has(n.replace(/ /g, ""));
}

/** "dd/mm" (or d/m) to "MM-DD", or null when not a real day of the year (29/02 allowed). */
export function parseBirthday(input: string): string | null {
  const m = /^\s*(\d{1,2})\s*[/.\-]\s*(\d{1,2})\s*$/.exec(input);
  if (!m) return null;
  const d = Number(m[1]);
  const mo = Number(m[2]);
  if (mo < 1 || mo > 12 || d < 1) return null;
  const days = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][mo - 1];
  if (d > days) return null;
  return `${String(mo).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
}

export function formatBirthday(stored: string | null | undefined): string {
  if (!stored) return "";
  const [mo, d] = stored.split("-");
  return `${d}/${mo}`;
}

