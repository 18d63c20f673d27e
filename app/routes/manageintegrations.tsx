// /manageintegrations: the business's integrations (Administrator only). The shop integration card: connect a
// shop (its domain and an Admin API access token, verified with a real call; BR038 with the shop's reason when
// it fails), the token never shown again (only its last four characters), the code discount {{shopify.code}}
// draws from, the codes made and given, the sends waiting for codes, and disconnect. Cards for API keys and
// webhooks link to their screens only once those screens exist (useHasScreen), so there is never a dead link.
import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Link, redirect, useActionData } from "react-router";
import { setToast } from "remix-toast/middleware";
import { z } from "zod";
import type { Route } from "./+types/manageintegrations";
import { useHasScreen } from "~/components/app-shell";
import { Badge } from "~/components/choices";
import { AppForm, Field, FormErrors, translateError } from "~/components/form";
import { useValidatedForm } from "~/components/use-validated-form";
import { Banner, Button, EmptyState, PageHeader, Pagination, Panel } from "~/components/ui";
import { chooseDiscount, connectShop, disconnectShop, getShopIntegration, listShopDiscounts, reasonContext } from "~/domain/shop/integration.server";
import { listCodes, recentCodeRequests } from "~/domain/shop/codes.server";
import { requireUser } from "~/lib/auth.server";
import { getDeps, getShop } from "~/lib/context.server";
import { AppError } from "~/lib/errors";
import { errorMessage, replyWithError } from "~/lib/forms.server";
import { formatLongDate } from "~/lib/uk-time";

export const handle = { titleKey: "shop.meta.title", descriptionKey: "shop.meta.description", permission: "integrations:manage" } as const;

const CODES_PAGE = 20;

export const connectSchema = z.object({
  intent: z.literal("connect"),
  shopDomain: z.string({ error: "validation.required" }).trim().min(1, "validation.required").max(120, "validation.tooLong"),
  accessToken: z.string({ error: "validation.required" }).trim().min(1, "validation.required").max(200, "validation.tooLong"),
});
export const discountSchema = z.object({
  intent: z.literal("discount"),
  discountId: z.string({ error: "validation.required" }).min(1, "validation.required").max(200, "validation.tooLong"),
});
const disconnectSchema = z.object({ intent: z.literal("disconnect") });
const schema = z.discriminatedUnion("intent", [connectSchema, discountSchema, disconnectSchema]);

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const deps = getDeps(context);
  const { db, config } = deps;
  const integration = await getShopIntegration(db, user.businessId);
  const raw = Number(new URL(request.url).searchParams.get("page") ?? "1");
  const page = Number.isSafeInteger(raw) && raw > 0 && raw < 100_000 ? raw : 1;
  let discounts: { id: string; title: string; status: string }[] = [];
  let discountsError: string | null = null;
  if (integration) {
    try {
      discounts = await listShopDiscounts(db, getShop(deps), user.businessId, config.sessionSecret);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      discountsError = errorMessage(error);
    }
  }
  const codes = integration ? await listCodes(db, user.businessId, page, CODES_PAGE) : null;
  const requests = integration ? await recentCodeRequests(db, user.businessId, 5) : [];
  return {
    integration,
    discounts,
    discountsError,
    codes,
    page,
    pageCount: codes ? Math.max(1, Math.ceil(codes.total / CODES_PAGE)) : 1,
    requests: requests.map((r) => ({ ...r, reason: r.errorReason ? reasonContext(r.errorReason) : null })),
    simulator: config.shop.provider === "simulator",
    simulatorServed: config.shop.simulatorServed,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const deps = getDeps(context);
  const { db, config, now } = deps;
  const submission = parseWithZod(await request.clone().formData(), { schema });
  if (submission.status !== "success") return data({ intent: "unknown", result: submission.reply({ hideFields: ["accessToken"] }) }, { status: 400 });
  const v = submission.value;
  try {
    if (v.intent === "connect") {
      await connectShop(db, getShop(deps), { businessId: user.businessId, userId: user.userId, shopDomain: v.shopDomain, accessToken: v.accessToken, secret: config.sessionSecret }, now());
      setToast(context, { type: "success", message: "shop.toast.connected" });
    } else if (v.intent === "discount") {
      await chooseDiscount(db, getShop(deps), { businessId: user.businessId, discountId: v.discountId, secret: config.sessionSecret }, now());
      setToast(context, { type: "success", message: "shop.toast.discount" });
    } else {
      await disconnectShop(db, user.businessId, now());
      setToast(context, { type: "success", message: "shop.toast.disconnected" });
    }
    return redirect("/manageintegrations");
  } catch (error) {
    // The token is never sent back to the page, even after a failure.
    const reply = replyWithError(submission, error, ["accessToken"]);
    return data({ intent: v.intent, result: reply.data.result }, { status: reply.init?.status ?? 400 });
  }
}

function ConnectForm({ simulator }: { simulator: boolean }) {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useValidatedForm(connectSchema, actionData?.intent === "connect" || actionData?.intent === "unknown" ? actionData.result : null, { id: "shop-connect" });
  return (
    <>
      <FormErrors errors={form.errors} id={form.errorId} />
      <AppForm {...getFormProps(form)} className="form">
        <input type="hidden" name="intent" value="connect" />
        <Field field={fields.shopDomain} label={t("shop.connect.domain")} hint={t("shop.connect.domainHint")} input={{ autoComplete: "off", placeholder: "your-shop.myshopify.com", spellCheck: false }} />
        <Field field={fields.accessToken} label={t("shop.connect.token")} hint={t("shop.connect.tokenHint")} type="password" input={{ autoComplete: "off" }} />
        {simulator ? <p className="field__hint">{t("shop.connect.simulatorHint")}</p> : null}
        <Button>{t("shop.connect.submit")}</Button>
      </AppForm>
    </>
  );
}

function DiscountForm({ discounts, current }: { discounts: { id: string; title: string; status: string }[]; current: string | null }) {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useValidatedForm(discountSchema, actionData?.intent === "discount" ? actionData.result : null, { id: "shop-discount", defaultValue: { discountId: current ?? undefined } });
  if (!discounts.length) return <EmptyState title={t("shop.discount.none")} body={t("shop.discount.noneBody")} />;
  return (
    <>
      <FormErrors errors={form.errors} id={form.errorId} />
      <AppForm {...getFormProps(form)} className="form">
        <input type="hidden" name="intent" value="discount" />
        <Field field={fields.discountId} label={t("shop.discount.label")} hint={t("shop.discount.hint")}>
          <select id={fields.discountId.id} name={fields.discountId.name} defaultValue={current ?? ""}>
            <option value="" disabled>
              {t("shop.discount.choose")}
            </option>
            {discounts.map((d) => (
              <option key={d.id} value={d.id}>
                {d.title}
                {d.status !== "ACTIVE" ? ` (${d.status.toLowerCase()})` : ""}
              </option>
            ))}
          </select>
        </Field>
        <Button variant="secondary">{t("shop.discount.submit")}</Button>
      </AppForm>
    </>
  );
}

const REQUEST_TONES = { PENDING: "yellow", MAKING: "yellow", READY: "green", FAILED: "red" } as const;

export default function ManageIntegrations({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const hasScreen = useHasScreen();
  const d = loaderData;
  const lng = i18n.language;
  const fmt = (n: number) => n.toLocaleString(lng === "fr" ? "fr-FR" : "en-GB");
  return (
    <>
      <PageHeader title={t("shop.title")} lead={t("shop.lead")} />
      <div className="stack">
        <Panel title={t("shop.card.title")} id="shop" action={<Badge tone={d.integration ? "green" : "neutral"}>{d.integration ? t("shop.card.connected") : t("shop.card.notConnected")}</Badge>}>
          {d.integration ? (
            <>
              <dl className="members-dl" data-testid="shop-details">
                <dt>{t("shop.card.shop")}</dt>
                <dd>{`${d.integration.shopName} (${d.integration.shopDomain})`}</dd>
                <dt>{t("shop.card.token")}</dt>
                <dd>{t("shop.card.tokenEnding", { last4: d.integration.tokenLast4 })}</dd>
                <dt>{t("shop.card.since")}</dt>
                <dd>{formatLongDate(d.integration.connectedAt, lng)}</dd>
                <dt>{t("shop.card.discount")}</dt>
                <dd>{d.integration.discountTitle ?? t("shop.card.noDiscount")}</dd>
              </dl>
              {d.integration.discountId ? (
                <p className="field__hint">{t("shop.card.tagHint", { tag: "{{shopify.code}}", interpolation: { escapeValue: false } })}</p>
              ) : (
                <Banner tone="warning">{t("shop.card.chooseFirst")}</Banner>
              )}
              {d.discountsError ? <Banner tone="error">{translateError(t, d.discountsError)}</Banner> : <DiscountForm discounts={d.discounts} current={d.integration.discountId} />}
              {d.simulator && d.simulatorServed ? (
                <p>
                  <Link to="/shopsimulator">{t("shop.card.simulatorLink")}</Link>
                </p>
              ) : null}
              <AppForm className="form">
                <input type="hidden" name="intent" value="disconnect" />
                <Button variant="destructive">{t("shop.card.disconnect")}</Button>
              </AppForm>
            </>
          ) : (
            <>
              <p>{t("shop.connect.lead")}</p>
              <ConnectForm simulator={d.simulator} />
            </>
          )}
        </Panel>
        {d.integration && d.requests.length ? (
          <Panel title={t("shop.requests.title")} id="shop-requests">
            <ul className="plain-list" data-testid="code-requests">
              {d.requests.map((r) => (
                <li key={r.id}>
                  <Badge tone={REQUEST_TONES[r.status]}>{t(`shop.requests.status.${r.status}`)}</Badge>{" "}
                  {t("shop.requests.made", { made: fmt(r.made), needed: fmt(r.needed) })}
                  {r.reason ? ` · ${t(`errors.BR038_${r.reason}`, { defaultValue: t("errors.BR038") })}` : ""}
                  {r.draftId && (r.status === "PENDING" || r.status === "MAKING" || r.status === "FAILED") ? (
                    <>
                      {" · "}
                      <Link to={`/newgroupmessage/preview?draft=${r.draftId}`}>{t("shop.requests.open")}</Link>
                    </>
                  ) : null}
                </li>
              ))}
            </ul>
          </Panel>
        ) : null}
        {d.codes ? (
          <Panel title={t("shop.codes.title")} id="shop-codes">
            <p data-testid="code-counts">{t("shop.codes.counts", { total: fmt(d.codes.total), given: fmt(d.codes.given), free: fmt(d.codes.free) })}</p>
            {d.codes.rows.length === 0 ? (
              <EmptyState title={t("shop.codes.empty")} />
            ) : (
              <div className="table-wrap" role="group" aria-labelledby="shop-codes-title" tabIndex={0}>
                <table>
                  <thead>
                    <tr>
                      <th scope="col">{t("shop.codes.code")}</th>
                      <th scope="col">{t("shop.codes.member")}</th>
                      <th scope="col">{t("shop.codes.made")}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {d.codes.rows.map((c) => (
                      <tr key={c.code}>
                        <td>
                          <code>{c.code}</code>
                        </td>
                        <td>{c.memberName ?? c.memberPhone ?? t("shop.codes.free")}</td>
                        <td>{formatLongDate(c.createdAt, lng)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            <Pagination page={d.page} pageCount={d.pageCount} hrefFor={(p) => `/manageintegrations?page=${p}`} />
          </Panel>
        ) : null}
        <Panel title={t("shop.others.apiKeys")} id="int-apikeys">
          <p>{t("shop.others.apiKeysLead")}</p>
          {hasScreen("/manageintegrations/apikeys") ? (
            <p>
              <Link to="/manageintegrations/apikeys">{t("shop.others.apiKeysLink")}</Link>
            </p>
          ) : (
            <p className="field__hint">{t("shop.others.soon")}</p>
          )}
        </Panel>
        <Panel title={t("shop.others.webhooks")} id="int-webhooks">
          <p>{t("shop.others.webhooksLead")}</p>
          {hasScreen("/manageintegrations/webhooks") ? (
            <p>
              <Link to="/manageintegrations/webhooks">{t("shop.others.webhooksLink")}</Link>
            </p>
          ) : (
            <p className="field__hint">{t("shop.others.soon")}</p>
          )}
        </Panel>
      </div>
    </>
  );
}
