// Smart groups: a name and filters over member attributes combined with AND/OR, with a live
// count. Without JavaScript: "Add condition", "Remove" and "Count" are submit buttons that re-render
// the editor with the values kept. With JavaScript the same buttons change the rows in place and the
// count follows the filter as it is edited (a fetcher posts intent=count). /smartgroup/new creates.
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { data, redirect, useActionData, useFetcher } from "react-router";
import { setToast } from "remix-toast/middleware";
import type { Route } from "./+types/smartgroup.$id";
import { AppForm } from "~/components/form";
import { Button, ButtonLink, PageHeader, Panel } from "~/components/ui";
import { DeleteGroup } from "~/components/group-delete";
import {
  createGroup,
  deleteGroup,
  filterFieldOptions,
  getGroup,
  pendingGroupMessages,
  previewFilterCount,
  updateGroup,
  type FilterFieldOption,
} from "~/domain/groups/groups.server";
import { FilterError, MAX_CONDITIONS, OPS_FOR, parseStoredFilter } from "~/domain/groups/smart-filter";
import { requireUser } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";
import { orNotFound } from "~/lib/not-found.server";
import { AppError, errorKey } from "~/lib/errors";
import { requiredText } from "~/lib/validation";

export const handle = { titleKey: "groups.meta.smartTitle", descriptionKey: "groups.meta.smartDescription" };

interface Row {
  field: string;
  op: string;
  value: string;
}
interface EditorState {
  name: string;
  match: "ALL" | "ANY";
  conditions: Row[];
}
interface Problems {
  name?: string;
  form?: string;
  row?: { index: number; key: string };
}

function parseId(raw: string | undefined): number | "new" {
  if (raw === "new") return "new";
  if (!/^[0-9]{1,15}$/.test(raw ?? "")) throw data(null, { status: 404 });
  return Number(raw);
}

const str = (v: FormDataEntryValue | null, max: number) => (typeof v === "string" ? v.slice(0, max) : "");

/** Reads the editor from a posted form: conditions[i].field/op/value, at most MAX_CONDITIONS rows. */
function readState(form: FormData): EditorState {
  const conditions: Row[] = [];
  for (let i = 0; i < MAX_CONDITIONS + 1; i++) {
    if (!form.has(`conditions[${i}].field`)) continue;
    conditions.push({
      field: str(form.get(`conditions[${i}].field`), 40),
      op: str(form.get(`conditions[${i}].op`), 20),
      value: str(form.get(`conditions[${i}].value`), 200),
    });
  }
  return { name: str(form.get("name"), 200), match: form.get("match") === "ANY" ? "ANY" : "ALL", conditions: conditions.slice(0, MAX_CONDITIONS) };
}

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db } = getDeps(context);
  const id = parseId(params.id);
  const fields = await filterFieldOptions(db, user.businessId);
  if (id === "new") {
    const name = (new URL(request.url).searchParams.get("name") ?? "").slice(0, 40);
    const state: EditorState = { name, match: "ALL", conditions: [{ field: "firstName", op: "contains", value: "" }] };
    return { id: null, state, fields, pending: 0, count: null as null | { subscribed: number; pending: number } };
  }
  const group = await orNotFound(getGroup(db, user.businessId, id));
  if (group.type !== "SMART") throw redirect(`/contactgroup/${id}`);
  const filter = parseStoredFilter(group.filter) ?? { match: "ALL" as const, conditions: [] };
  let count: { subscribed: number; pending: number } | null = null;
  try {
    count = await previewFilterCount(db, user.businessId, filter);
  } catch {
    count = null; // an attribute it used was deleted: the editor shows the rows to fix
  }
  return {
    id: group.id,
    state: { name: group.name, match: filter.match, conditions: filter.conditions } as EditorState,
    fields,
    pending: await pendingGroupMessages(db, user.businessId, group.id),
    count,
  };
}

export async function action({ params, request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const deps = getDeps(context);
  const { db, now } = deps;
  const id = parseId(params.id);
  if (id !== "new") {
    const g = await orNotFound(getGroup(db, user.businessId, id));
    if (g.type !== "SMART") throw data(null, { status: 404 });
  }
  const form = await request.formData();
  const intent = str(form.get("intent"), 20);
  const state = readState(form);
  const reply = (problems: Problems, count: { subscribed: number; pending: number } | null = null, status = 400) =>
    data({ state, problems, count, confirmDelete: false }, { status });

  if (intent === "delete" && id !== "new") {
    const pending = await pendingGroupMessages(db, user.businessId, id);
    if (pending > 0 && form.get("confirm") !== "yes") return data({ state, problems: {}, count: null, confirmDelete: true });
    try {
      await deleteGroup(deps, user.businessId, id);
    } catch (error) {
      if (!(error instanceof AppError) || error.code === "NF001") throw error;
      return reply({ form: errorKey(error.code) });
    }
    setToast(context, { type: "success", message: "groups.deleted" });
    return redirect("/groups");
  }
  if (intent === "add") {
    if (state.conditions.length < MAX_CONDITIONS) state.conditions.push({ field: "firstName", op: "contains", value: "" });
    return data({ state, problems: {}, count: null, confirmDelete: false });
  }
  if (intent.startsWith("remove-")) {
    state.conditions.splice(Number(intent.slice(7)), 1);
    return data({ state, problems: {}, count: null, confirmDelete: false });
  }
  const filter = { match: state.match, conditions: state.conditions };
  let count: { subscribed: number; pending: number };
  try {
    count = await previewFilterCount(db, user.businessId, filter);
  } catch (error) {
    if (error instanceof FilterError) return reply({ row: { index: error.index, key: error.messageKey } });
    if (error instanceof AppError && error.status < 500) return reply({ form: errorKey(error.code) });
    throw error;
  }
  if (intent === "count") return data({ state, problems: {}, count, confirmDelete: false });
  // Save.
  const name = requiredText().refine((v) => !/[<>]/.test(v), "errors.BR022").safeParse(state.name);
  if (!name.success) return reply({ name: name.error.issues[0]?.message ?? "validation.required" }, count);
  try {
    if (id === "new") {
      const newId = await createGroup(db, user.businessId, { name: name.data, type: "SMART", filter }, now());
      setToast(context, { type: "success", message: "groups.created" });
      return redirect(`/smartgroup/${newId}`);
    }
    await updateGroup(db, user.businessId, id, { name: name.data, filter }, now());
  } catch (error) {
    if (error instanceof FilterError) return reply({ row: { index: error.index, key: error.messageKey } });
    if (error instanceof AppError && error.status < 500) return reply({ form: errorKey(error.code) });
    throw error;
  }
  setToast(context, { type: "success", message: "groups.saved" });
  return redirect(`/smartgroup/${id}`);
}

const FORM_ID = "smart-group-form";

/** The live count (intent=count) changes nothing: no need to reload the page's data. */
export function shouldRevalidate({ formData, defaultShouldRevalidate }: { formData?: FormData; defaultShouldRevalidate: boolean }) {
  if (formData?.get("intent") === "count") return false;
  return defaultShouldRevalidate;
}
const MONTHS = Array.from({ length: 12 }, (_, i) => i + 1);

function kindOf(fields: FilterFieldOption[], field: string): FilterFieldOption | undefined {
  return fields.find((f) => f.field === field);
}

export default function SmartGroup({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const actionData = useActionData<typeof action>();
  const fetcher = useFetcher<typeof action>();
  const initial = actionData?.state ?? loaderData.state;
  const [rows, setRows] = useState<Row[]>(initial.conditions);
  const [enhanced, setEnhanced] = useState(false);
  // A server re-render (no JS path or after a post) replaces the rows; an unchanged state keeps the edits.
  const serverKey = JSON.stringify(initial);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => setRows(initial.conditions), [serverKey]);
  useEffect(() => setEnhanced(true), []);
  const problems: Problems = actionData?.problems ?? {};
  const count = fetcher.data?.count ?? actionData?.count ?? loaderData.count;
  // While typing, an empty value is not an error yet.
  const fetcherRow = (fetcher.data?.problems as Problems | undefined)?.row;
  const fetcherProblem = fetcherRow && fetcherRow.key !== "validation.required" ? fetcherRow : undefined;
  const rowProblem = problems.row ?? fetcherProblem;
  const fields = loaderData.fields;
  const monthName = (m: number) => new Intl.DateTimeFormat(i18n.language, { month: "long", timeZone: "UTC" }).format(new Date(Date.UTC(2026, m - 1, 1)));

  // Live count: after an edit settles, post the form with intent=count.
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  function recount() {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      const el = document.getElementById(FORM_ID);
      if (!(el instanceof HTMLFormElement)) return;
      const fd = new FormData(el);
      fd.set("intent", "count");
      void fetcher.submit(fd, { method: "post" });
    }, 300);
  }
  useEffect(() => {
    if (enhanced) recount();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [rows.length]);

  function setRow(i: number, patch: Partial<Row>) {
    setRows((rs) =>
      rs.map((r, k) => {
        if (k !== i) return r;
        const next = { ...r, ...patch };
        if (patch.field !== undefined) {
          const ops = OPS_FOR[kindOf(fields, next.field)?.kind ?? "TEXT"];
          if (!ops.includes(next.op as never)) next.op = ops[0];
          next.value = "";
        }
        return next;
      }),
    );
  }

  return (
    <>
      <PageHeader
        title={loaderData.id ? initial.name || t("groups.smart.title") : t("groups.smart.newTitle")}
        lead={t("groups.smart.lead")}
        actions={<ButtonLink variant="secondary" to="/groups">{t("groups.back")}</ButtonLink>}
      />
      <div className="groups stack">
        <Panel title={t("groups.smart.filters")} id="smart-editor">
          {problems.form ? (
            <div className="banner banner--error" role="alert">
              {t(problems.form)}
            </div>
          ) : null}
          <AppForm id={FORM_ID} className="form smart-editor" onChange={() => recount()} noValidate>
            <div className={`field${problems.name ? " field--invalid" : ""}`}>
              <label htmlFor="group-name">{t("groups.fields.name")}</label>
              <input id="group-name" name="name" type="text" maxLength={40} defaultValue={initial.name} key={`name-${initial.name}`} aria-invalid={problems.name ? true : undefined} aria-describedby={problems.name ? "group-name-error" : undefined} />
              {problems.name ? (
                <ul className="field__errors" id="group-name-error">
                  <li>{t(problems.name, { field: t("groups.fields.name"), max: 40 })}</li>
                </ul>
              ) : null}
            </div>
            <div className="field">
              <label htmlFor="match">{t("groups.smart.match")}</label>
              <select id="match" name="match" defaultValue={initial.match} key={`match-${initial.match}`}>
                <option value="ALL">{t("groups.smart.matchAll")}</option>
                <option value="ANY">{t("groups.smart.matchAny")}</option>
              </select>
            </div>
            <ol className="conditions">
              {rows.map((row, i) => {
                const f = kindOf(fields, row.field);
                const kind = f?.kind ?? "TEXT";
                const ops = OPS_FOR[kind] ?? OPS_FOR.TEXT;
                const bad = rowProblem?.index === i;
                const valueId = `cond-${i}-value`;
                const valueProps = {
                  id: valueId,
                  name: `conditions[${i}].value`,
                  "aria-invalid": bad || undefined,
                  "aria-describedby": bad ? `cond-${i}-error` : undefined,
                };
                return (
                  <li key={i} className={`condition${bad ? " field--invalid" : ""}`}>
                    <div className="field">
                      <label htmlFor={`cond-${i}-field`}>{t("groups.smart.attribute")}</label>
                      <select id={`cond-${i}-field`} name={`conditions[${i}].field`} value={row.field} onChange={(e) => setRow(i, { field: e.target.value })}>
                        <optgroup label={t("groups.smart.defaultAttributes")}>
                          {fields.filter((o) => !o.custom).map((o) => (
                            <option key={o.field} value={o.field}>
                              {t(`groups.fields.${o.label}`)}
                            </option>
                          ))}
                        </optgroup>
                        {fields.some((o) => o.custom) ? (
                          <optgroup label={t("groups.smart.customAttributes")}>
                            {fields.filter((o) => o.custom).map((o) => (
                              <option key={o.field} value={o.field}>
                                {o.label}
                              </option>
                            ))}
                          </optgroup>
                        ) : null}
                        {f ? null : <option value={row.field}>{t("groups.smart.unknownAttribute")}</option>}
                      </select>
                    </div>
                    <div className="field">
                      <label htmlFor={`cond-${i}-op`}>{t("groups.smart.comparison")}</label>
                      <select id={`cond-${i}-op`} name={`conditions[${i}].op`} value={ops.includes(row.op as never) ? row.op : ops[0]} onChange={(e) => setRow(i, { op: e.target.value })}>
                        {ops.map((op) => (
                          <option key={op} value={op}>
                            {t(`groups.ops.${op}`)}
                          </option>
                        ))}
                      </select>
                    </div>
                    <div className="field">
                      <label htmlFor={valueId}>{t("groups.smart.value")}</label>
                      {kind === "BIRTHDAY" ? (
                        <select {...valueProps} value={row.value} onChange={(e) => setRow(i, { value: e.target.value })}>
                          <option value="">{t("groups.smart.chooseMonth")}</option>
                          {MONTHS.map((m) => (
                            <option key={m} value={String(m)}>
                              {monthName(m)}
                            </option>
                          ))}
                        </select>
                      ) : kind === "LIST" ? (
                        <select {...valueProps} value={row.value} onChange={(e) => setRow(i, { value: e.target.value })}>
                          <option value="">{t("groups.smart.chooseItem")}</option>
                          {(f?.items ?? []).map((it) => (
                            <option key={it.id} value={String(it.id)}>
                              {it.label}
                            </option>
                          ))}
                        </select>
                      ) : kind === "OPTED_IN" ? (
                        <select {...valueProps} value={row.value || "yes"} onChange={(e) => setRow(i, { value: e.target.value })}>
                          <option value="yes">{t("groups.smart.optedInYes")}</option>
                          <option value="no">{t("groups.smart.optedInNo")}</option>
                        </select>
                      ) : (
                        <input
                          {...valueProps}
                          type={kind === "DATE" ? "date" : kind === "TIME" ? "time" : "text"}
                          inputMode={kind === "NUMBER" ? "decimal" : undefined}
                          maxLength={200}
                          value={row.value}
                          onChange={(e) => setRow(i, { value: e.target.value })}
                        />
                      )}
                    </div>
                    {bad ? (
                      <ul className="field__errors" id={`cond-${i}-error`}>
                        <li>{t(rowProblem.key, { field: t("groups.smart.value") })}</li>
                      </ul>
                    ) : null}
                    <Button
                      variant="secondary"
                      name="intent"
                      value={`remove-${i}`}
                      aria-label={t("groups.smart.removeNumbered", { n: i + 1 })}
                      onClick={(e) => {
                        if (!enhanced) return;
                        e.preventDefault();
                        setRows((rs) => rs.filter((_, k) => k !== i));
                      }}
                    >
                      {t("groups.remove")}
                    </Button>
                  </li>
                );
              })}
            </ol>
            {rows.length === 0 ? <p className="muted">{t("groups.smart.noConditions")}</p> : null}
            <div className="smart-editor__actions">
              {rows.length < MAX_CONDITIONS ? (
                <Button
                  variant="secondary"
                  name="intent"
                  value="add"
                  onClick={(e) => {
                    if (!enhanced) return;
                    e.preventDefault();
                    setRows((rs) => [...rs, { field: "firstName", op: "contains", value: "" }]);
                  }}
                >
                  {t("groups.smart.addCondition")}
                </Button>
              ) : null}
              <Button variant="secondary" name="intent" value="count">
                {t("groups.smart.count")}
              </Button>
            </div>
            <p className="smart-count" aria-live="polite" role="status">
              {count ? t("groups.smart.countResult", { count: count.subscribed }) : t("groups.smart.countUnknown")}
              {count && count.pending ? ` ${t("groups.smart.countPending", { count: count.pending })}` : ""}
            </p>
            <Button name="intent" value="save">
              {loaderData.id ? t("groups.save") : t("groups.smart.create")}
            </Button>
          </AppForm>
        </Panel>
        {loaderData.id ? (
          <Panel title={t("groups.settings")} id="settings">
            <DeleteGroup pending={loaderData.pending} confirm={Boolean(actionData?.confirmDelete)} />
          </Panel>
        ) : null}
      </div>
    </>
  );
}
