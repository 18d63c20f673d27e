// Smart groups: a filter over member attributes, stored as JSON on the group and compiled to ONE
// SQL condition on `members` (Kysely, every value bound as a parameter) each time it is used, so a smart
// group is always current and never loads members into memory.
//
// Filter JSON: { match: "ALL" | "ANY", conditions: [{ field, op, value }] } (at most MAX_CONDITIONS).
// Fields:
//   member columns  firstName, fullName, note            ops contains | equals          (case-insensitive)
//                   birthday                            op  inMonth (value 1-12)
//                   appointmentAt, joinedAt             ops before | after | on (value YYYY-MM-DD, UK dates)
//                   optedIn                             op  is (value yes | no: subscribed or pending)
//   custom          attr:<id>   TEXT/NOTE: contains | equals;  NUMBER: eq | ne | lt | lte | gt | gte;
//                               DATE: before | after | on;  TIME: before | after | on (HH:MM);
//                               BIRTHDAY: inMonth;  LIST: is (value = list item id)
// Custom attribute ids and list item ids are checked against the business before compiling.
import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from "kysely";
import { z } from "zod";
import type { DB } from "#db/types";
import { AppError } from "~/lib/errors";
import { wallClockToUtc } from "~/lib/uk-time";

export const MAX_CONDITIONS = 10;
export const MEMBER_FIELDS = ["firstName", "fullName", "note", "birthday", "appointmentAt", "joinedAt", "optedIn"] as const;
export type MemberField = (typeof MEMBER_FIELDS)[number];
export const OPS = ["contains", "equals", "eq", "ne", "lt", "lte", "gt", "gte", "before", "after", "on", "inMonth", "is"] as const;
export type Op = (typeof OPS)[number];

export const conditionSchema = z.object({
  field: z.string().trim().max(40).regex(/^(attr:[0-9]{1,15}|[a-zA-Z]{1,20})$/, "groups.errors.field"),
  op: z.enum(OPS, { error: "groups.errors.op" }),
  value: z.string().trim().max(200, "validation.tooLongShort").default(""),
});
export type Condition = z.infer<typeof conditionSchema>;

export const filterSchema = z.object({
  match: z.enum(["ALL", "ANY"]).default("ALL"),
  conditions: z.array(conditionSchema).max(MAX_CONDITIONS, "groups.errors.tooMany"),
});
export type SmartFilter = z.infer<typeof filterSchema>;

/** The operators each kind of field accepts (also what the editor offers). */
export const OPS_FOR: Record<string, readonly Op[]> = {
  TEXT: ["contains", "equals"],
  NOTE: ["contains", "equals"],
  NUMBER: ["eq", "ne", "lt", "lte", "gt", "gte"],
  DATE: ["before", "after", "on"],
  TIME: ["before", "after", "on"],
  BIRTHDAY: ["inMonth"],
  LIST: ["is"],
  OPTED_IN: ["is"],
};

/** The kind of each default member field. */
const MEMBER_FIELD_KIND: Record<MemberField, string> = {
  firstName: "TEXT",
  fullName: "TEXT",
  note: "NOTE",
  birthday: "BIRTHDAY",
  appointmentAt: "DATE",
  joinedAt: "DATE",
  optedIn: "OPTED_IN",
};

const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

export interface ResolvedAttribute {
  id: number;
  type: string;
  /** For LIST attributes: item id -> label. */
  items?: Map<number, string>;
}

/** A condition failed validation: which one (index) and the i18n key. */
export class FilterError extends AppError {
  constructor(
    readonly index: number,
    readonly messageKey: string,
  ) {
    super("BR025", { index }, { field: `conditions[${index}].value` });
  }
}

/** Loads the custom attributes a filter names, scoped to the business (unknown ids are errors). */
export async function resolveAttributes(db: Kysely<DB>, businessId: number, filter: SmartFilter): Promise<Map<number, ResolvedAttribute>> {
  const ids = [...new Set(filter.conditions.filter((c) => c.field.startsWith("attr:")).map((c) => Number(c.field.slice(5))))].filter(
    (n) => Number.isSafeInteger(n) && n > 0,
  );
  const out = new Map<number, ResolvedAttribute>();
  if (!ids.length) return out;
  const attrs = await db.selectFrom("attributes").select(["id", "type"]).where("business_id", "=", businessId).where("id", "in", ids).execute();
  for (const a of attrs) out.set(a.id, { id: a.id, type: a.type });
  const listIds = attrs.filter((a) => a.type === "LIST").map((a) => a.id);
  if (listIds.length) {
    const items = await db.selectFrom("attribute_list_items").select(["id", "attribute_id", "label"]).where("attribute_id", "in", listIds).execute();
    for (const it of items) {
      const a = out.get(it.attribute_id)!;
      (a.items ??= new Map()).set(it.id, it.label);
    }
  }
  return out;
}

function kindOf(c: Condition, attrs: Map<number, ResolvedAttribute>): string | null {
  if (c.field.startsWith("attr:")) return attrs.get(Number(c.field.slice(5)))?.type ?? null;
  return (MEMBER_FIELD_KIND as Record<string, string>)[c.field] ?? null;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
function validDate(v: string): boolean {
  const m = DATE.exec(v);
  if (!m) return false;
  const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
  return d.getUTCFullYear() === +m[1] && d.getUTCMonth() === +m[2] - 1 && d.getUTCDate() === +m[3];
}
const NUMBER = /^-?(\d{1,15})(\.\d{1,6})?$/;

/**
 * Checks every condition (field known to the business, operator fits the type, value well formed:
 * numeric comparisons need numbers). Throws FilterError for the first bad one.
 */
export function validateFilter(filter: SmartFilter, attrs: Map<number, ResolvedAttribute>): void {
  filter.conditions.forEach((c, i) => {
    const kind = kindOf(c, attrs);
    if (!kind) throw new FilterError(i, "groups.errors.field");
    if (!OPS_FOR[kind].includes(c.op)) throw new FilterError(i, "groups.errors.op");
    const v = c.value;
    if (CONTROL.test(v)) throw new FilterError(i, "validation.controlChars");
    switch (kind) {
      case "TEXT":
      case "NOTE":
        if (!v) throw new FilterError(i, "validation.required");
        break;
      case "NUMBER":
        if (!NUMBER.test(v.replace(/,/g, ""))) throw new FilterError(i, "groups.errors.number");
        break;
      case "DATE":
        if (!validDate(v)) throw new FilterError(i, "groups.errors.date");
        break;
      case "TIME":
        if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(v)) throw new FilterError(i, "groups.errors.time");
        break;
      case "BIRTHDAY":
        if (!/^(0?[1-9]|1[0-2])$/.test(v)) throw new FilterError(i, "groups.errors.month");
        break;
      case "LIST": {
        const a = attrs.get(Number(c.field.slice(5)))!;
        if (!/^\d{1,15}$/.test(v) || !a.items?.has(Number(v))) throw new FilterError(i, "groups.errors.listItem");
        break;
      }
      case "OPTED_IN":
        if (v !== "yes" && v !== "no") throw new FilterError(i, "groups.errors.optedIn");
        break;
    }
  });
}

/** LIKE pattern for "contains", with the user's %, _ and \ taken literally. */
function containsPattern(v: string): string {
  return `%${v.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

type EB = ExpressionBuilder<DB, "members">;

/**
 * "on/before/after" a UK date (YYYY-MM-DD). For a date column (a custom DATE attribute) the stored
 * YYYY-MM-DD is compared as it is. For an instant column (joined, appointment: ISO UTC timestamps) the day
 * runs from UK midnight to the next UK midnight, so a member who joined at 00:30 on a summer morning
 * (23:30 UTC the evening before) joined on that day. ISO strings sort as text; "on" is [day, next day).
 */
function dateCompare(col: Expression<string | null>, op: Op, v: string, kind: "date" | "instant" = "date") {
  const [y, m, d] = v.split("-").map(Number);
  const bound = (dayOffset: number) =>
    kind === "instant" ? wallClockToUtc(y, m, d + dayOffset, 0).toISOString() : new Date(Date.UTC(y, m - 1, d + dayOffset)).toISOString().slice(0, 10);
  const start = bound(0);
  const next = bound(1);
  if (op === "before") return sql<SqlBool>`${col} < ${start}`;
  if (op === "after") return sql<SqlBool>`${col} >= ${next}`;
  return sql<SqlBool>`(${col} >= ${start} AND ${col} < ${next})`;
}

function textCompare(col: Expression<string | null>, op: Op, v: string) {
  if (op === "equals") return sql<SqlBool>`lower(${col}) = ${v.toLowerCase()}`;
  return sql<SqlBool>`lower(${col}) LIKE ${containsPattern(v)} ESCAPE '\\'`;
}

function monthPattern(v: string): string {
  return `${v.padStart(2, "0")}-%`;
}

const NUM_OPS: Record<string, string> = { eq: "=", ne: "<>", lt: "<", lte: "<=", gt: ">", gte: ">=" };

function conditionSql(eb: EB, c: Condition, attrs: Map<number, ResolvedAttribute>): Expression<SqlBool> {
  const ref = (col: "first_name" | "full_name" | "note" | "birthday" | "appointment_at" | "joined_at") => eb.ref(`members.${col}`);
  if (!c.field.startsWith("attr:")) {
    switch (c.field as MemberField) {
      case "firstName":
        return textCompare(ref("first_name"), c.op, c.value);
      case "fullName":
        return textCompare(ref("full_name"), c.op, c.value);
      case "note":
        return textCompare(ref("note"), c.op, c.value);
      case "birthday":
        return sql<SqlBool>`${ref("birthday")} LIKE ${monthPattern(c.value)}`;
      case "appointmentAt":
        return dateCompare(ref("appointment_at"), c.op, c.value, "instant");
      case "joinedAt":
        return dateCompare(ref("joined_at"), c.op, c.value, "instant");
      case "optedIn":
        return eb("members.status", "=", c.value === "yes" ? "SUBSCRIBED" : "PENDING");
    }
  }
  const attr = attrs.get(Number(c.field.slice(5)))!;
  const v = c.value;
  let valueCond: Expression<SqlBool>;
  const vt = sql.ref("v.value_text") as Expression<string | null>;
  switch (attr.type) {
    case "TEXT":
    case "NOTE":
      valueCond = textCompare(vt, c.op, v);
      break;
    case "NUMBER":
      valueCond = sql<SqlBool>`v.value_number ${sql.raw(NUM_OPS[c.op])} ${Number(v.replace(/,/g, ""))}`;
      break;
    case "DATE":
      valueCond = dateCompare(vt, c.op, v);
      break;
    case "TIME":
      valueCond = c.op === "before" ? sql<SqlBool>`v.value_text < ${v}` : c.op === "after" ? sql<SqlBool>`v.value_text > ${v}` : sql<SqlBool>`v.value_text = ${v}`;
      break;
    case "BIRTHDAY":
      valueCond = sql<SqlBool>`v.value_text LIKE ${monthPattern(v)}`;
      break;
    case "LIST": {
      // The member's choice is stored as the item id (value_number) or its label (value_text): match either.
      const label = attr.items!.get(Number(v))!;
      valueCond = sql<SqlBool>`(v.value_number = ${Number(v)} OR v.value_text = ${label})`;
      break;
    }
    default:
      valueCond = sql<SqlBool>`1 = 0`;
  }
  return sql<SqlBool>`EXISTS (SELECT 1 FROM member_attribute_values v WHERE v.member_id = members.id AND v.attribute_id = ${attr.id} AND ${valueCond})`;
}

/** The filter as one condition on `members` (AND/OR of its conditions; no conditions matches everyone). */
export function filterCondition(filter: SmartFilter, attrs: Map<number, ResolvedAttribute>) {
  return (eb: EB): Expression<SqlBool> => {
    if (!filter.conditions.length) return sql<SqlBool>`1 = 1`;
    const parts = filter.conditions.map((c) => conditionSql(eb, c, attrs));
    return filter.match === "ANY" ? eb.or(parts) : eb.and(parts);
  };
}

/** Parses a stored filter; a broken one matches nobody (never everybody). */
export function parseStoredFilter(json: string | null): SmartFilter | null {
  if (!json) return null;
  try {
    const r = filterSchema.safeParse(JSON.parse(json));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}
