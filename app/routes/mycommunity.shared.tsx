// Pieces shared by the community pages (not a route): the member form schema and fields (default
// attributes + custom attributes), used by /invitemember, /memberinfo and /myinfo/{ref}.
import { getInputProps } from "@conform-to/react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { Field, type FieldMeta } from "~/components/form";
import { parseBirthday } from "~/domain/members/attribute-rules";
import { phoneInput } from "~/lib/validation";

const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
const optionalShort = z
  .string()
  .trim()
  .max(40, "validation.tooLongShort")
  .refine((v) => !CONTROL.test(v), "validation.controlChars")
  .optional();

export const memberSchema = z.object({
  phone: phoneInput,
  firstName: optionalShort,
  fullName: optionalShort,
  // The same dd/mm check the server makes, so 31/02 is refused as the user types.
  birthday: z
    .string()
    .trim()
    .refine((v) => v === "" || parseBirthday(v) !== null, "validation.birthday")
    .optional(),
  appointmentDate: z.string().trim().max(10, "validation.tooLongShort").optional(),
  appointmentTime: z.string().trim().max(5, "validation.tooLongShort").optional(),
  note: z.string().max(5000, "validation.tooLongLong").optional(),
});

export const myInfoSchema = memberSchema.omit({ phone: true, appointmentDate: true, appointmentTime: true, note: true });

/** Custom attribute values posted as attr_<id>. */
export function attributeValuesFrom(form: FormData): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of form) {
    const m = /^attr_(\d{1,12})$/.exec(k);
    if (m && typeof v === "string") out[m[1]] = v;
  }
  return out;
}

export interface FormAttribute {
  id: number;
  name: string;
  type: string;
  mandatory: number;
  items: { id: number; label: string }[];
}

type Fields = Record<string, FieldMeta>;

/** Inputs for the custom attributes; `initial` gives each one's stored value (form shape). */
export function AttributeFields({ attributes, fields, initial, readOnly = [] }: { attributes: FormAttribute[]; fields: Fields; initial: Record<string, string>; readOnly?: number[] }) {
  const { t } = useTranslation();
  return (
    <>
      {attributes.map((a) => {
        const name = `attr_${a.id}`;
        const field = fields[name];
        const posted = field?.initialValue;
        const value = typeof posted === "string" ? posted : (initial[String(a.id)] ?? "");
        const label = a.mandatory ? a.name : `${a.name} ${t("members.form.optional")}`;
        const ro = readOnly.includes(a.id);
        const meta: FieldMeta = field ?? { id: name, name, errorId: `${name}-error`, descriptionId: `${name}-hint` };
        const invalid = (meta.errors?.length ?? 0) > 0;
        if (ro) {
          return (
            <div className="field" key={a.id}>
              <span className="field__label">{a.name}</span>
              <p>{a.type === "LIST" ? (a.items.find((i) => String(i.id) === value)?.label ?? "—") : value || "—"}</p>
            </div>
          );
        }
        if (a.type === "LIST") {
          return (
            <Field key={a.id} field={meta} label={label}>
              <select id={meta.id} name={name} defaultValue={value} aria-invalid={invalid || undefined} aria-describedby={invalid ? meta.errorId : undefined}>
                <option value="">{t("members.form.choose")}</option>
                {a.items.map((i) => (
                  <option key={i.id} value={i.id}>
                    {i.label}
                  </option>
                ))}
              </select>
            </Field>
          );
        }
        if (a.type === "NOTE") {
          return (
            <Field key={a.id} field={meta} label={label}>
              <textarea id={meta.id} name={name} defaultValue={value} maxLength={5000} rows={3} aria-invalid={invalid || undefined} aria-describedby={invalid ? meta.errorId : undefined} />
            </Field>
          );
        }
        const type = a.type === "DATE" ? "date" : a.type === "TIME" ? "time" : a.type === "NUMBER" ? "text" : "text";
        return (
          <Field
            key={a.id}
            field={meta}
            label={label}
            hint={a.type === "BIRTHDAY" ? t("members.form.birthdayHint") : undefined}
            input={{ name, type, defaultValue: value, maxLength: 40, inputMode: a.type === "NUMBER" ? "decimal" : undefined }}
          />
        );
      })}
    </>
  );
}

/** The default attribute inputs (names, birthday; optionally appointment and note). */
export function DefaultFields({ fields, full = true }: { fields: Fields; full?: boolean }) {
  const { t } = useTranslation();
  return (
    <>
      <Field field={fields.firstName} label={t("members.fields.firstName")} input={{ ...getInputProps(fields.firstName as never, { type: "text" }), maxLength: 40, autoComplete: "off" }} />
      <Field field={fields.fullName} label={t("members.fields.fullName")} input={{ ...getInputProps(fields.fullName as never, { type: "text" }), maxLength: 40, autoComplete: "off" }} />
      <Field field={fields.birthday} label={t("members.fields.birthday")} hint={t("members.form.birthdayHint")} input={{ ...getInputProps(fields.birthday as never, { type: "text" }), maxLength: 10, inputMode: "numeric" }} />
      {full ? (
        <>
          <Field field={fields.appointmentDate} label={t("members.fields.appointmentDate")} input={{ ...getInputProps(fields.appointmentDate as never, { type: "date" }) }} />
          <Field field={fields.appointmentTime} label={t("members.fields.appointmentTime")} input={{ ...getInputProps(fields.appointmentTime as never, { type: "time" }) }} />
          <Field field={fields.note} label={t("members.fields.note")}>
            <textarea id={fields.note.id} name={fields.note.name} defaultValue={(fields.note.initialValue as string) ?? ""} maxLength={5000} rows={3} />
          </Field>
        </>
      ) : null}
    </>
  );
}
