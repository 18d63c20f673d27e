// Groups: a list group (fixed membership). Rename it, see its members a page at a time, search
// members and add the ticked ones or everyone matching ("edit members"), remove members, and delete the group (its pending messages are
// deleted too, after a warning). Every action is a plain form post; it works without JavaScript.
import { getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useActionData } from "react-router";
import { setToast } from "remix-toast/middleware";
import { z } from "zod";
import type { Route } from "./+types/contactgroup.$id";
import { AppForm, FormErrors, Field } from "~/components/form";
import { useValidatedForm } from "~/components/use-validated-form";
import { DeleteGroup } from "~/components/group-delete";
import { Button, ButtonLink, EmptyState, PageHeader, Panel } from "~/components/ui";
import {
  addGroupMembers,
  addMatchingMembers,
  countGroupMembers,
  countMatchingNotInGroup,
  deleteGroup,
  getGroup,
  groupMembersPage,
  pendingGroupMessages,
  removeGroupMembers,
  searchMembersForGroup,
  SEARCH_RESULTS_MAX,
  updateGroup,
} from "~/domain/groups/groups.server";
import { requireUser } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";
import { orNotFound } from "~/lib/not-found.server";
import { AppError, errorKey } from "~/lib/errors";
import { formText, replyWithError } from "~/lib/forms.server";
import { formatUkNumber } from "~/lib/phone";
import { requiredText } from "~/lib/validation";

export const handle = { titleKey: "groups.meta.listTitle", descriptionKey: "groups.meta.listDescription" };

const PAGE = 50;
const renameSchema = z.object({ intent: z.literal("rename"), name: requiredText().refine((v) => !/[<>]/.test(v), "errors.BR022") });

function groupId(params: { id?: string }): number {
  const id = Number(params.id);
  if (!/^[0-9]{1,15}$/.test(params.id ?? "") || !Number.isSafeInteger(id)) throw data(null, { status: 404 });
  return id;
}

async function loadListGroup(db: Parameters<typeof getGroup>[0], businessId: number, id: number) {
  const group = await getGroup(db, businessId, id);
  if (group.type === "SMART") throw redirect(`/smartgroup/${id}`);
  return group;
}

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db } = getDeps(context);
  const id = groupId(params);
  const group = await orNotFound(loadListGroup(db, user.businessId, id));
  const url = new URL(request.url);
  const after = Math.max(0, Number(url.searchParams.get("after")) || 0);
  const q = (url.searchParams.get("q") ?? "").slice(0, 40);
  const rows = await groupMembersPage(db, user.businessId, id, after, PAGE + 1);
  const members = rows.slice(0, PAGE).map((m) => ({ ...m, phone: formatUkNumber(m.phone) }));
  const results = q.trim() ? (await searchMembersForGroup(db, user.businessId, id, q, SEARCH_RESULTS_MAX)).map((m) => ({ ...m, phone: formatUkNumber(m.phone) })) : null;
  // What "add all matching" would add: every match not in the group yet, beyond the listed ones too.
  const addable = q.trim() ? await countMatchingNotInGroup(db, user.businessId, id, q) : 0;
  return {
    group: { id: group.id, name: group.name, type: group.type },
    count: await countGroupMembers(db, user.businessId, id),
    pending: await pendingGroupMessages(db, user.businessId, id),
    members,
    after,
    nextAfter: rows.length > PAGE ? members[members.length - 1].id : null,
    q,
    results,
    addable,
  };
}

export async function action({ params, request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const deps = getDeps(context);
  const { db, now } = deps;
  const id = groupId(params);
  const group = await orNotFound(loadListGroup(db, user.businessId, id));
  const form = await request.formData();
  const intent = form.get("intent");
  const ids = form
    .getAll("memberId")
    .map((v) => (typeof v === "string" && /^[0-9]{1,15}$/.test(v) ? Number(v) : NaN))
    .filter((n) => Number.isSafeInteger(n));
  const back = `/contactgroup/${id}`;
  if (intent === "rename") {
    const submission = parseWithZod(form, { schema: renameSchema });
    if (submission.status !== "success") return data({ result: submission.reply(), confirmDelete: false }, { status: 400 });
    try {
      await updateGroup(db, user.businessId, id, { name: submission.value.name }, now());
    } catch (error) {
      return replyWithError(submission, error);
    }
    setToast(context, { type: "success", message: "groups.saved" });
    return redirect(back);
  }
  if (intent === "add" || intent === "addAll") {
    const q = formText(form, "q").slice(0, 40);
    const again = q ? `${back}?q=${encodeURIComponent(q)}#search` : back;
    if (intent === "addAll") {
      // Members of another business never match: the search is scoped to this one.
      const { added, more } = await addMatchingMembers(db, user.businessId, id, q, now());
      setToast(context, { type: added ? "success" : "info", message: more ? "groups.bulk.allAddedMore" : added ? "groups.bulk.allAdded" : "groups.bulk.nothingAdded" });
      return redirect(again);
    }
    if (ids.length === 0) {
      setToast(context, { type: "info", message: "groups.bulk.noneTicked" });
      return redirect(again);
    }
    // Ids of another business's members, or of deleted ones, are ignored.
    const added = await addGroupMembers(db, user.businessId, id, ids, now());
    const message = added > 1 ? "groups.bulk.selectedAdded" : added ? "groups.membersAdded" : ids.length > 1 ? "groups.bulk.nothingAdded" : "groups.nothingAdded";
    setToast(context, { type: added ? "success" : "info", message });
    return redirect(again);
  }
  if (intent === "remove") {
    await removeGroupMembers(db, user.businessId, id, ids, now());
    setToast(context, { type: "success", message: "groups.memberRemoved" });
    return redirect(back);
  }
  if (intent === "delete") {
    const pending = await pendingGroupMessages(db, user.businessId, group.id);
    if (pending > 0 && form.get("confirm") !== "yes") return data({ result: undefined, confirmDelete: true }, { status: 200 });
    try {
      await deleteGroup(deps, user.businessId, group.id);
    } catch (error) {
      // A message that went out meanwhile (BR015): the group stays; say so.
      if (!(error instanceof AppError) || error.code === "NF001") throw error;
      setToast(context, { type: "error", message: errorKey(error.code) });
      return redirect(back);
    }
    setToast(context, { type: "success", message: "groups.deleted" });
    return redirect("/groups");
  }
  throw data({ code: "BR025" }, { status: 400 });
}

export default function ContactGroup({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>();
  const { group, members, results } = loaderData;
  const [form, fields] = useValidatedForm(renameSchema, actionData && "result" in actionData ? actionData.result : undefined, { id: "rename-group", defaultValue: { name: group.name } });
  return (
    <>
      <PageHeader
        title={group.name}
        lead={t("groups.listLead", { count: loaderData.count })}
        actions={<ButtonLink variant="secondary" to="/groups">{t("groups.back")}</ButtonLink>}
      />
      <div className="groups stack">
        <Panel title={t("groups.editMembers")} id="search">
          <Form method="get" className="form form--inline" role="search">
            <div className="field">
              <label htmlFor="member-search">{t("groups.search.label")}</label>
              <input id="member-search" name="q" type="search" defaultValue={loaderData.q} maxLength={40} />
            </div>
            <Button variant="secondary">{t("groups.search.submit")}</Button>
          </Form>
          {results ? (
            results.length ? (
              <div className="stack">
                <AppForm className="stack" aria-label={t("groups.bulk.selectedFormLabel")}>
                  <input type="hidden" name="intent" value="add" />
                  <input type="hidden" name="q" value={loaderData.q} />
                  <fieldset className="bulk-add">
                    <legend>{t("groups.bulk.legend", { count: results.length })}</legend>
                    <ul className="member-rows">
                      {results.map((m) => {
                        const name = m.full_name || m.first_name || m.phone;
                        return (
                          <li key={m.id} className="member-rows__item">
                            {m.inGroup ? (
                              <span>
                                <strong>{name}</strong> <span className="muted">{m.phone}</span>
                                <span className="muted"> · {t("groups.inGroup")}</span>
                              </span>
                            ) : (
                              <label className="checkbox">
                                <input type="checkbox" name="memberId" value={m.id} />
                                <span>
                                  <strong>{name}</strong> <span className="muted">{m.phone}</span>
                                  {m.status === "PENDING" ? <span className="muted"> · {t("groups.pendingOptIn")}</span> : null}
                                </span>
                              </label>
                            )}
                          </li>
                        );
                      })}
                    </ul>
                  </fieldset>
                  {results.some((m) => !m.inGroup) ? (
                    <div className="actions">
                      <Button>{t("groups.bulk.addSelected")}</Button>
                    </div>
                  ) : null}
                </AppForm>
                {loaderData.addable > 0 ? (
                  <AppForm className="actions">
                    <input type="hidden" name="intent" value="addAll" />
                    <input type="hidden" name="q" value={loaderData.q} />
                    <Button variant="secondary">{t("groups.bulk.addAll", { count: loaderData.addable })}</Button>
                  </AppForm>
                ) : (
                  <p className="muted">{t("groups.bulk.allIn")}</p>
                )}
              </div>
            ) : (
              <p>{t("groups.search.none")}</p>
            )
          ) : null}
        </Panel>
        <Panel title={t("groups.members")} id="members">
          {members.length === 0 ? <EmptyState title={t("groups.noMembers.title")} body={t("groups.noMembers.body")} /> : null}
          <ul className="member-rows">
            {members.map((m) => (
              <li key={m.id} className="member-rows__item">
                <span>
                  <strong>{m.full_name || m.first_name || m.phone}</strong> <span className="muted">{m.phone}</span>
                  {m.status === "PENDING" ? <span className="muted"> · {t("groups.pendingOptIn")}</span> : null}
                </span>
                <AppForm>
                  <input type="hidden" name="intent" value="remove" />
                  <input type="hidden" name="memberId" value={m.id} />
                  <Button variant="secondary" aria-label={t("groups.removeNamed", { name: m.full_name || m.first_name || m.phone })}>
                    {t("groups.remove")}
                  </Button>
                </AppForm>
              </li>
            ))}
          </ul>
          <nav className="pager" aria-label={t("groups.pages")}>
            {loaderData.after ? <Link to={`/contactgroup/${group.id}`}>{t("groups.firstPage")}</Link> : null}
            {loaderData.nextAfter ? <Link to={`/contactgroup/${group.id}?after=${loaderData.nextAfter}`}>{t("groups.nextPage")}</Link> : null}
          </nav>
        </Panel>
        <Panel title={t("groups.settings")} id="settings">
          <FormErrors errors={form.errors} id={form.errorId} />
          <AppForm {...getFormProps(form)} className="form">
            <input type="hidden" name="intent" value="rename" />
            <Field field={fields.name} label={t("groups.fields.name")} input={{ ...getInputProps(fields.name, { type: "text" }), maxLength: 40 }} />
            <Button>{t("groups.save")}</Button>
          </AppForm>
          <DeleteGroup pending={loaderData.pending} confirm={Boolean(actionData && "confirmDelete" in actionData && actionData.confirmDelete)} />
        </Panel>
      </div>
    </>
  );
}
