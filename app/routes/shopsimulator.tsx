// The shop simulator's page (/shopsimulator): what the built-in stand-in for an online shop holds. Its code
// discounts, the test domains and tokens that fail on purpose, and every code it was asked to create, newest
// first, with a button to mark one redeemed (as a customer using it at the checkout would). Served only where
// the shop simulator is the provider and the simulators are served (this machine, by default); 404 otherwise.
import { useTranslation } from "react-i18next";
import { data, redirect } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/shopsimulator";
import { Badge } from "~/components/choices";
import { AppForm } from "~/components/form";
import { Button, EmptyState, PageHeader, Pagination, Panel } from "~/components/ui";
import { getDeps } from "~/lib/context.server";
import { formatLongDate } from "~/lib/uk-time";
import { listSimulatedCodes, redeemSimulatedCode, SIMULATED_DISCOUNTS, SIMULATOR_TEST_SHOPS } from "~/providers/shop/simulator.server";

export const handle = { titleKey: "shop.sim.metaTitle", descriptionKey: "shop.sim.metaDescription" };

const PAGE_SIZE = 50;
const redeemSchema = z.object({ id: z.coerce.number().int().positive() });

function pageOf(request: Request): number {
  const raw = Number(new URL(request.url).searchParams.get("page") ?? "1");
  return Number.isSafeInteger(raw) && raw > 0 && raw < 100_000 ? raw : 1;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { db, config } = getDeps(context);
  if (!config.shop.simulatorServed) throw data(null, { status: 404 });
  const page = pageOf(request);
  const list = await listSimulatedCodes(db, { page, pageSize: PAGE_SIZE });
  return {
    discounts: SIMULATED_DISCOUNTS,
    tests: SIMULATOR_TEST_SHOPS,
    codes: list.rows.map((r) => ({ id: r.id, shop: r.shop_domain, discount: r.discountTitle, code: r.code, createdAt: r.created_at, redeemedAt: r.redeemed_at })),
    total: list.total,
    page,
    pageCount: Math.max(1, Math.ceil(list.total / PAGE_SIZE)),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { db, config, now } = getDeps(context);
  if (!config.shop.simulatorServed) throw data(null, { status: 404 });
  const parsed = redeemSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) throw data(null, { status: 400 });
  await redeemSimulatedCode(db, parsed.data.id, now());
  return redirect(`/shopsimulator?page=${pageOf(request)}`);
}

export default function ShopSimulator({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const lng = i18n.language;
  const d = loaderData;
  return (
    <>
      <header className="sim-ribbon">
        <p>{t("shop.sim.ribbon")}</p>
      </header>
      <main className="page stack payment-sim" id="main">
        <PageHeader title={t("shop.sim.title")} lead={t("shop.sim.lead")} />
        <Panel title={t("shop.sim.discounts")} id="sim-discounts">
          <ul>
            {d.discounts.map((x) => (
              <li key={x.id}>
                {x.title} <code>{x.id}</code>
              </li>
            ))}
          </ul>
          <p className="field__hint">
            {t("shop.sim.tests", {
              invalid: d.tests.invalidToken,
              noScopes: d.tests.noScopesToken,
              frozen: d.tests.frozenDomain,
              unreachable: d.tests.unreachableDomain,
              interpolation: { escapeValue: false },
            })}
          </p>
        </Panel>
        <Panel title={t("shop.sim.codes", { count: d.total })} id="sim-codes">
          {d.codes.length === 0 ? (
            <EmptyState title={t("shop.sim.empty")} />
          ) : (
            <div className="table-wrap" role="group" aria-labelledby="sim-codes-title" tabIndex={0}>
              <table data-testid="sim-codes">
                <thead>
                  <tr>
                    <th scope="col">{t("shop.sim.code")}</th>
                    <th scope="col">{t("shop.sim.shop")}</th>
                    <th scope="col">{t("shop.sim.discount")}</th>
                    <th scope="col">{t("shop.sim.state")}</th>
                  </tr>
                </thead>
                <tbody>
                  {d.codes.map((c) => (
                    <tr key={c.id}>
                      <td>
                        <code>{c.code}</code>
                      </td>
                      <td>{c.shop}</td>
                      <td>{c.discount}</td>
                      <td>
                        {c.redeemedAt ? (
                          <Badge tone="green">{t("shop.sim.redeemed", { when: formatLongDate(c.redeemedAt, lng) })}</Badge>
                        ) : (
                          <AppForm action={`/shopsimulator?page=${d.page}`}>
                            <input type="hidden" name="id" value={c.id} />
                            <Button variant="secondary" className="btn--small" aria-label={t("shop.sim.redeemCode", { code: c.code })}>
                              {t("shop.sim.redeem")}
                            </Button>
                          </AppForm>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <Pagination page={d.page} pageCount={d.pageCount} hrefFor={(p) => `/shopsimulator?page=${p}`} />
        </Panel>
      </main>
    </>
  );
}
