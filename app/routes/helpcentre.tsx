// /helpcentre: every guide, and a search over their titles and text. The search is a GET form, so it works
// without JavaScript; with JavaScript the results follow the words as they are typed (the same loader answers).
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Form, Link, useNavigation, useSubmit } from "react-router";
import type { Route } from "./+types/helpcentre";
import { EmptyState, PageHeader, Panel } from "~/components/ui";
import { helpLocale, SEARCH_QUERY_MAX } from "~/domain/help/catalogue";
import { listGuides, searchGuides } from "~/domain/help/guides.server";
import { getLocale } from "~/lib/i18n.server";

export const handle = { titleKey: "help.meta.title", descriptionKey: "help.meta.description" };

export function loader({ request, context }: Route.LoaderArgs) {
  const locale = helpLocale(getLocale(context));
  const q = (new URL(request.url).searchParams.get("q") ?? "").slice(0, SEARCH_QUERY_MAX).trim();
  return { q, guides: listGuides(locale), hits: q ? searchGuides(locale, q) : null };
}

export default function HelpCentre({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { q, guides, hits } = loaderData;
  const submit = useSubmit();
  const navigation = useNavigation();
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const searching = navigation.state === "loading" && navigation.location.pathname === "/helpcentre";
  return (
    <>
      <PageHeader title={t("help.title")} lead={t("help.lead")} />
      <Form
        method="get"
        role="search"
        className="help-search"
        aria-label={t("help.search.landmark")}
        onChange={(event) => {
          // With JavaScript: search as the words are typed, a moment after the last key.
          const form = event.currentTarget;
          window.clearTimeout(timer.current);
          timer.current = window.setTimeout(() => void submit(form, { replace: true, preventScrollReset: true }), 250);
        }}
      >
        <div className="field">
          <label htmlFor="help-q">{t("help.search.label")}</label>
          <input id="help-q" name="q" type="search" defaultValue={q} maxLength={SEARCH_QUERY_MAX} placeholder={t("help.search.placeholder")} autoComplete="off" />
        </div>
        <button type="submit" className="btn btn--primary">
          {t("help.search.submit")}
        </button>
      </Form>
      <div aria-live="polite" aria-busy={searching}>
        {hits ? (
          <Panel title={t("help.search.results", { count: hits.length, query: q })} id="help-results">
            {hits.length === 0 ? (
              <EmptyState title={t("help.search.none")} body={t("help.search.noneBody")} />
            ) : (
              <ul className="list help-list">
                {hits.map((h) => (
                  <li key={h.slug}>
                    <Link to={`/helpcentre/${h.slug}`} className="help-list__title">
                      {h.title}
                    </Link>
                    <p className="small help-list__text">{h.excerpt}</p>
                  </li>
                ))}
              </ul>
            )}
          </Panel>
        ) : null}
      </div>
      <Panel title={t("help.guides")} id="help-guides">
        <ul className="list help-list">
          {guides.map((g) => (
            <li key={g.slug}>
              <Link to={`/helpcentre/${g.slug}`} className="help-list__title">
                {g.title}
              </Link>
              <p className="small help-list__text">{g.summary}</p>
            </li>
          ))}
        </ul>
      </Panel>
    </>
  );
}
