// Member attributes: the default attributes (read-only) and the business's custom ones, created,
// edited (?edit=<id>) and deleted (?delete=<id>, a confirmation step) with plain form posts.
// Rules: unique names (BR011), reserved names refused, at least one list item and items must differ,
// an attribute holding member data cannot be deleted (BR043); removing a list item used by a smart
// group removes that group after confirmation.
import { getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Link, redirect, useActionData } from "react-router";
import { setToast } from "remix-toast/middleware";
import { z } from "zod";
import type { Route } from "./+types/memberattributes";
import { AppForm, Field, FormErrors } from "~/components/form";
import { useValidatedForm } from "~/components/use-validated-form";
import { Banner, Button, ButtonLink, PageHeader, Panel } from "~/components/ui";
import { ATTRIBUTE_TYPES, DEFAULT_ATTRIBUTES, isReservedName, normalName } from "~/domain/members/attribute-rules";
import { createAttribute, deleteAttribute, getAttribute, listAttributes, updateAttribute } from "~/domain/members/attributes.server";
import { smartGroupsUsingAttribute } from "~/domain/groups/groups.server";
import { requireUser } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";
import { AppError } from "~/lib/errors";
import { replyWithError } from "~/lib/forms.server";
import { requiredText } from "~/lib/validation";

export const handle = { titleKey: "attributes.meta.title", descriptionKey: "attributes.meta.description" };

const SPECIAL = /[<>{}[\]\\^`|~$#%*=;@]/;
const itemLabel = z.string().trim().max(40, "validation.tooLongShort").refine((v) => !SPECIAL.test(v), "errors.BR022");

const schema = z
  .object({
    id: z.coerce.number().int().positive().optional(),
    name: requiredText()
      .refine((v) => !SPECIAL.test(v), "errors.BR022")
      .refine((v) => !isReservedName(v), "attributes.errors.reserved"),
    type: z.enum(ATTRIBUTE_TYPES, { error: "validation.required" }),
    showOnForm: z.literal("on").optional(),
    memberCanEdit: z.literal("on").optional(),
    mandatory: z.literal("on").optional(),
    newItems: z.string().max(5000, "validation.tooLongLong").optional(),
    confirmGroups: z.literal("1").optional(),
  })
  .catchall(z.string().max(200).optional());

function itemsFrom(value: Record<string, unknown>) {
  const items: { id?: number; label: string }[] = [];
  for (const [k, v] of Object.entries(value)) {
    const m = /^item_(\d{1,12})$/.exec(k);
    if (m && typeof v === "string" && v.trim()) items.push({ id: Number(m[1]), label: v.trim() });
  }
  for (const line of (typeof value.newItems === "string" ? value.newItems : "").split(/\r?\n/)) if (line.trim()) items.push({ label: line.trim() });
  return items;
}

function checkItems(type: string, items: { label: string }[]) {
  if (type !== "LIST") return null;
  if (items.length === 0) return "attributes.errors.itemsRequired";
  const seen = new Set<string>();
  for (const i of items) {
    const r = itemLabel.safeParse(i.label);
    if (!r.success) return r.error.issues[0].message;
    const k = normalName(i.label);
    if (seen.has(k)) return "attributes.errors.itemsDiffer";
    seen.add(k);
  }
  return null;
}

type GroupRef = { id: number; name: string };
const NO_GROUPS = null as GroupRef[] | null;

function paramId(url: URL, name: string): number | null {
  const v = url.searchParams.get(name);
  if (v === null) return null;
  if (!/^\d{1,15}$/.test(v)) throw data(null, { status: 404 });
  return Number(v);
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db } = getDeps(context);
  const url = new URL(request.url);
  const editId = paramId(url, "edit");
  const deleteId = paramId(url, "delete");
  const attributes = await listAttributes(db, user.businessId);
  const pick = (id: number | null) => (id === null ? null : (attributes.find((a) => Number(a.id) === id) ?? null));
  const editing = pick(editId);
  const deleting = pick(deleteId);
  if ((editId !== null && !editing) || (deleteId !== null && !deleting)) throw data(null, { status: 404 });
  const shape = (a: (typeof attributes)[number]) => ({
    id: Number(a.id),
    key: a.key,
    name: a.name,
    type: a.type,
    showOnForm: !!a.show_on_form,
    memberCanEdit: !!a.member_can_edit,
    mandatory: !!a.mandatory,
    items: a.items,
  });
  // Smart groups using the attribute being deleted are named on the confirmation step (deleted with it).
  const deletingGroups = deleting ? (await smartGroupsUsingAttribute(db, user.businessId, Number(deleting.id))).map((g) => ({ id: Number(g.id), name: g.name })) : [];
  return { attributes: attributes.map(shape), editing: editing ? shape(editing) : null, deleting: deleting ? shape(deleting) : null, deletingGroups };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const deps = getDeps(context);
  const { db, now } = deps;
  const form = await request.clone().formData();
  if (form.get("intent") === "delete") {
    const id = Number(form.get("id"));
    if (!Number.isSafeInteger(id) || id <= 0 || !(await getAttribute(db, user.businessId, id))) throw data(null, { status: 404 });
    try {
      const r = await deleteAttribute(deps, user.businessId, id, { confirmRemoveGroups: form.get("confirmGroups") === "1" });
      // A smart group started using it after the page was drawn: ask again, naming the groups.
      if (r.needsConfirmation) return data({ result: null, deleteError: null, groups: r.needsConfirmation }, { status: 409 });
    } catch (error) {
      if (error instanceof AppError && error.code === "BR043") {
        return data({ result: null, deleteError: "errors.BR043", groups: NO_GROUPS }, { status: 400 });
      }
      throw error;
    }
    setToast(context, { type: "success", message: "attributes.toast.deleted" });
    return redirect("/memberattributes");
  }
  const submission = parseWithZod(form, { schema });
  if (submission.status !== "success") return data({ result: submission.reply(), deleteError: null, groups: NO_GROUPS }, { status: 400 });
  const v = submission.value;
  const items = itemsFrom(v);
  const itemError = checkItems(v.type, items);
  if (itemError) return data({ result: submission.reply({ fieldErrors: { newItems: [itemError] } }), deleteError: null, groups: NO_GROUPS }, { status: 400 });
  const input = { name: v.name, type: v.type, showOnForm: !!v.showOnForm, memberCanEdit: !!v.memberCanEdit, mandatory: !!v.mandatory, items };
  try {
    if (v.id) {
      if (!(await getAttribute(db, user.businessId, v.id))) throw data(null, { status: 404 });
      const r = await updateAttribute(deps, user.businessId, v.id, input, { confirmRemoveGroups: v.confirmGroups === "1" });
      if (r.needsConfirmation) return data({ result: submission.reply(), deleteError: null, groups: r.needsConfirmation }, { status: 409 });
      setToast(context, { type: "success", message: "attributes.toast.saved" });
    } else {
      await createAttribute(db, user.businessId, input, now());
      setToast(context, { type: "success", message: "attributes.toast.created" });
    }
    return redirect("/memberattributes");
  } catch (error) {
    if (error instanceof AppError && error.code === "BR017") {
      return data({ result: submission.reply({ fieldErrors: { name: ["attributes.errors.reserved"] } }), deleteError: null, groups: NO_GROUPS }, { status: 400 });
    }
    return replyWithError(submission, error);
  }
}

type Shaped = Route.ComponentProps["loaderData"]["attributes"][number];

function AttributeForm({ editing }: { editing: Shaped | null }) {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useValidatedForm(schema, actionData?.result, {
    id: editing ? `attr-edit-${editing.id}` : "attr-new",
    defaultValue: editing
      ? ({
          id: String(editing.id),
          name: editing.name,
          type: editing.type,
          showOnForm: editing.showOnForm ? "on" : undefined,
          memberCanEdit: editing.memberCanEdit ? "on" : undefined,
          mandatory: editing.mandatory ? "on" : undefined,
          ...Object.fromEntries(editing.items.map((i) => [`item_${i.id}`, i.label])),
        } as never)
      : ({ type: "TEXT" } as never),
  });
  const groups = actionData && "groups" in actionData ? actionData.groups : null;
  const f = fields as unknown as Record<string, { initialValue?: unknown; errors?: string[]; id: string; name: string; errorId: string; descriptionId: string }>;
  const checked = (name: string) => f[name]?.initialValue === "on";
  const newItemsErrors = fields.newItems.errors ?? [];
  return (
    <Panel title={editing ? t("attributes.form.editTitle", { name: editing.name }) : t("attributes.form.newTitle")} id="attr-form">
      <FormErrors errors={form.errors} id={form.errorId} />
      {groups?.length ? (
        <Banner tone="warning" title={t("attributes.groups.title")}>
          <p>{t("attributes.groups.body", { groups: groups.map((g) => g.name).join(", ") })}</p>
        </Banner>
      ) : null}
      <AppForm {...getFormProps(form)} action={editing ? `/memberattributes?edit=${editing.id}` : "/memberattributes"} className="form">
        {editing ? <input type="hidden" name="id" value={editing.id} /> : null}
        {groups?.length ? <input type="hidden" name="confirmGroups" value="1" /> : null}
        <Field field={fields.name} label={t("attributes.fields.name")} input={{ ...getInputProps(fields.name, { type: "text" }), maxLength: 40, autoComplete: "off" }} />
        {editing ? (
          <>
            <input type="hidden" name="type" value={editing.type} />
            <p>
              {t("attributes.fields.type")}: <strong>{t(`attributes.types.${editing.type}`)}</strong>
            </p>
          </>
        ) : (
          <Field field={fields.type} label={t("attributes.fields.type")}>
            <select id={fields.type.id} name={fields.type.name} defaultValue={fields.type.initialValue ?? "TEXT"}>
              {ATTRIBUTE_TYPES.map((ty) => (
                <option key={ty} value={ty}>
                  {t(`attributes.types.${ty}`)}
                </option>
              ))}
            </select>
          </Field>
        )}
        <fieldset className="attr-flags">
          <legend>{t("attributes.fields.flags")}</legend>
          {(["showOnForm", "memberCanEdit", "mandatory"] as const).map((flag) => (
            <label key={flag} className="checkbox">
              <input type="checkbox" name={flag} defaultChecked={checked(flag)} /> {t(`attributes.flags.${flag}`)}
            </label>
          ))}
        </fieldset>
        {editing?.type === "LIST" ? (
          <fieldset className="attr-items">
            <legend>{t("attributes.fields.items")}</legend>
            <p className="field__hint">{t("attributes.form.itemsEditHint")}</p>
            {editing.items.map((i, n) => {
              const name = `item_${i.id}`;
              const posted = f[name]?.initialValue;
              return (
                <div className="field" key={i.id}>
                  <label htmlFor={`item-${i.id}`}>{t("attributes.form.itemLabel", { n: n + 1 })}</label>
                  <input id={`item-${i.id}`} name={name} defaultValue={typeof posted === "string" ? posted : i.label} maxLength={40} />
                </div>
              );
            })}
          </fieldset>
        ) : null}
        {!editing || editing.type === "LIST" ? (
          <Field field={fields.newItems} label={editing ? t("attributes.fields.moreItems") : t("attributes.fields.items")} hint={t("attributes.form.itemsHint")}>
            <textarea
              id={fields.newItems.id}
              name={fields.newItems.name}
              rows={4}
              maxLength={5000}
              defaultValue={fields.newItems.initialValue ?? ""}
              aria-invalid={newItemsErrors.length > 0 || undefined}
              aria-describedby={`${fields.newItems.descriptionId}${newItemsErrors.length ? ` ${fields.newItems.errorId}` : ""}`}
            />
          </Field>
        ) : null}
        <div className="actions">
          <Button>{groups?.length ? t("attributes.groups.confirm") : editing ? t("attributes.form.save") : t("attributes.form.create")}</Button>
          {editing ? (
            <ButtonLink variant="secondary" to="/memberattributes">
              {t("common.cancel")}
            </ButtonLink>
          ) : null}
        </div>
      </AppForm>
    </Panel>
  );
}

export default function MemberAttributes({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { attributes, editing, deleting, deletingGroups } = loaderData;
  const actionData = useActionData<typeof action>();
  if (deleting) {
    const posted = actionData && "groups" in actionData ? actionData.groups : null;
    const groups = posted?.length ? posted : deletingGroups;
    return (
      <>
        <PageHeader title={t("attributes.delete.title", { name: deleting.name })} />
        <Panel>
          {actionData && "deleteError" in actionData && actionData.deleteError ? <Banner tone="error">{t(actionData.deleteError)}</Banner> : null}
          <p>{t("attributes.delete.body")}</p>
          {groups.length ? (
            <Banner tone="warning" title={t("attributes.groups.title")}>
              <p>{t("attributes.delete.groups", { groups: groups.map((g) => g.name).join(", ") })}</p>
            </Banner>
          ) : null}
          <AppForm method="post" action={`/memberattributes?delete=${deleting.id}`} className="actions">
            <input type="hidden" name="intent" value="delete" />
            <input type="hidden" name="id" value={deleting.id} />
            {groups.length ? <input type="hidden" name="confirmGroups" value="1" /> : null}
            <Button variant="destructive">{t("attributes.delete.confirm")}</Button>
            <ButtonLink variant="secondary" to="/memberattributes">
              {t("common.cancel")}
            </ButtonLink>
          </AppForm>
        </Panel>
      </>
    );
  }
  return (
    <>
      <PageHeader title={t("attributes.title")} lead={t("attributes.lead")} />
      <div className="stack">
        <Panel title={t("attributes.defaultsTitle")} id="attr-defaults">
          <ul className="attr-list">
            {DEFAULT_ATTRIBUTES.map((a) => (
              <li key={a.key}>
                <span>{t(`attributes.defaults.${a.key}`)}</span> <span className="attr-list__type">{t(`attributes.types.${a.type}`)}</span>
              </li>
            ))}
          </ul>
        </Panel>
        <Panel title={t("attributes.customTitle")} id="attr-custom">
          {attributes.length === 0 ? (
            <p>{t("attributes.none")}</p>
          ) : (
            <ul className="attr-list">
              {attributes.map((a) => (
                <li key={a.id}>
                  <span>
                    <strong>{a.name}</strong> <span className="attr-list__type">{t(`attributes.types.${a.type}`)}</span>
                    {a.items.length ? <span className="attr-list__items"> · {a.items.map((i) => i.label).join(", ")}</span> : null}
                    {a.mandatory ? <span className="attr-list__flag"> · {t("attributes.flags.mandatory")}</span> : null}
                  </span>
                  <span className="attr-list__actions">
                    <Link to={`/memberattributes?edit=${a.id}`}>{t("attributes.edit", { name: a.name })}</Link>
                    <Link to={`/memberattributes?delete=${a.id}`}>{t("attributes.remove", { name: a.name })}</Link>
                  </span>
                </li>
              ))}
            </ul>
          )}
        </Panel>
        <AttributeForm key={editing?.id ?? "new"} editing={editing} />
      </div>
    </>
  );
}
