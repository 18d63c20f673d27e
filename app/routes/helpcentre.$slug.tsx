// /helpcentre/:slug (and /helpcentre/getstarted): one guide in the reader's language, its videos with captions in
// both languages and a transcript under each, and the screens it talks about (only those this build has).
// Opening the getting-started guide records the quick start as seen, so the home page's panel hides.
import { useTranslation } from "react-i18next";
import { data, Link } from "react-router";
import type { Route } from "./+types/helpcentre.$slug";
import { PageHeader, Panel } from "~/components/ui";
import { GET_STARTED_SLUG, GUIDE_SCREENS, HELP_VIDEOS, helpLocale, isGuideSlug, videoFiles, type HelpLocale } from "~/domain/help/catalogue";
import { getGuide, listGuides, recordGuideOpened } from "~/domain/help/guides.server";
import { requireUser } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";
import { getLocale } from "~/lib/i18n.server";
import { existingScreens } from "~/lib/shell.server";

export const handle = { titleKey: "help.meta.guideTitle", descriptionKey: "help.meta.description" };

export async function loader({ params, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db, now } = getDeps(context);
  const slug = params.slug ?? GET_STARTED_SLUG;
  if (!isGuideSlug(slug)) throw data(null, { status: 404 });
  const locale = helpLocale(getLocale(context));
  const guide = getGuide(locale, slug);
  if (!guide) throw data(null, { status: 404 });
  await recordGuideOpened(db, user, slug, now());
  const videos = HELP_VIDEOS.filter((v) => v.guide === slug).map((v) => ({ id: v.id, step: v.step, transcript: v.captions[locale], files: videoFiles(v.id) }));
  return {
    locale,
    guide: { slug: guide.slug, title: guide.title, parts: guide.parts },
    videos,
    screens: await existingScreens(GUIDE_SCREENS[slug] ?? []),
    others: listGuides(locale).filter((g) => g.slug !== slug),
  };
}

type Video = Awaited<ReturnType<typeof loader>>["videos"][number];

const TRACK_LABELS: Record<HelpLocale, string> = { "en-GB": "English", fr: "Français" };

function GuideVideo({ video, locale }: { video: Video; locale: HelpLocale }) {
  const { t } = useTranslation();
  const titleId = `video-${video.id}-title`;
  return (
    <figure className="help-video" id={`video-${video.id}`} aria-labelledby={titleId}>
      <figcaption id={titleId} className="help-video__title">
        {t("help.video.title", { step: video.step })}
      </figcaption>
      <video controls preload="metadata" width={960} height={540} className="help-video__player" aria-describedby={`video-${video.id}-transcript`}>
        <source src={video.files.webm} type="video/webm" />
        {(["en-GB", "fr"] as const).map((lng) => (
          <track key={lng} kind="captions" srcLang={lng} label={TRACK_LABELS[lng]} src={video.files.captions[lng]} default={lng === locale} />
        ))}
        <a href={video.files.webm}>{t("help.video.download")}</a>
      </video>
      <div className="help-video__transcript" id={`video-${video.id}-transcript`}>
        <h3 className="small">{t("help.video.transcript")}</h3>
        <ol>
          {video.transcript.map((line, i) => (
            <li key={i}>{line}</li>
          ))}
        </ol>
      </div>
    </figure>
  );
}

export default function HelpGuide({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { guide, videos, screens, others, locale } = loaderData;
  return (
    <>
      <nav aria-label={t("help.breadcrumb")} className="small help-breadcrumb">
        <Link to="/helpcentre">{t("help.title")}</Link>
      </nav>
      <PageHeader title={guide.title} />
      <div className="help-layout">
        <article className="panel help-guide" aria-label={guide.title}>
          {guide.parts.map((part, i) => {
            if (part.kind === "html") return <div key={i} className="help-prose" dangerouslySetInnerHTML={{ __html: part.html }} />;
            const video = videos.find((v) => v.id === part.id);
            return video ? <GuideVideo key={i} video={video} locale={locale} /> : null;
          })}
        </article>
        <aside className="help-aside stack">
          {screens.length > 0 ? (
            <Panel title={t("help.screensTitle")} id="help-screens">
              <ul className="list-reset help-links">
                {screens.map((path) => (
                  <li key={path}>
                    <Link to={path}>{t(`help.screens.${path.slice(1).replace("/", "_")}`)}</Link>
                  </li>
                ))}
              </ul>
            </Panel>
          ) : null}
          <Panel title={t("help.otherGuides")} id="help-other">
            <ul className="list-reset help-links">
              {others.map((g) => (
                <li key={g.slug}>
                  <Link to={`/helpcentre/${g.slug}`}>{g.title}</Link>
                </li>
              ))}
            </ul>
          </Panel>
        </aside>
      </div>
    </>
  );
}
