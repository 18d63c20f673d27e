// The building blocks every screen reuses (ui.md): buttons, panels, tiles, meters, banners,
// empty states, page headers and pagination. Plain CSS classes from styles/app.css.
import type { ReactNode } from "react";
import { Link, type LinkProps } from "react-router";
import { useTranslation } from "react-i18next";

// "destructive" is the quiet first press (red outline); "danger" the filled red of the confirmation itself.
type Variant = "primary" | "secondary" | "destructive" | "danger" | "link";

export function Button({
  variant = "primary",
  className = "",
  ...props
}: React.ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant }) {
  return <button type="submit" {...props} className={`btn btn--${variant} ${className}`.trim()} />;
}

export function ButtonLink({ variant = "primary", className = "", ...props }: LinkProps & { variant?: Variant }) {
  return <Link {...props} className={`btn btn--${variant} ${className}`.trim()} />;
}

export function PageHeader({ title, lead, actions }: { title: ReactNode; lead?: ReactNode; actions?: ReactNode }) {
  return (
    <header className="page-header">
      <div>
        <h1>{title}</h1>
        {lead ? <p className="lead">{lead}</p> : null}
      </div>
      {actions ? <div className="page-header__actions">{actions}</div> : null}
    </header>
  );
}

export function Panel({
  title,
  children,
  action,
  className = "",
  headingLevel = 2,
  id,
}: {
  title?: ReactNode;
  children: ReactNode;
  action?: ReactNode;
  className?: string;
  headingLevel?: 2 | 3;
  id?: string;
}) {
  const H = headingLevel === 2 ? "h2" : "h3";
  return (
    <section className={`panel ${className}`.trim()} aria-labelledby={title && id ? `${id}-title` : undefined}>
      {title || action ? (
        <div className="panel__head">
          {title ? <H id={id ? `${id}-title` : undefined} className="panel__title">{title}</H> : null}
          {action}
        </div>
      ) : null}
      {children}
    </section>
  );
}

/** A count tile linking somewhere: large number, label underneath. */
export function Tile({ to, value, label, id }: { to: string; value: number | string; label: ReactNode; id?: string }) {
  return (
    <Link to={to} className="tile" id={id}>
      <span className="tile__value" data-value>{value}</span>
      <span className="tile__label">{label}</span>
    </Link>
  );
}

export type MeterTone = "green" | "yellow" | "red";

/** A horizontal meter; the colour is never the only signal (the label and percentage say it too). */
export function Meter({ percent, tone, label, detail }: { percent: number; tone: MeterTone; label: ReactNode; detail?: ReactNode }) {
  const { t } = useTranslation();
  const clamped = Math.max(0, Math.min(100, Math.round(percent)));
  return (
    <div className={`meter meter--${tone}`}>
      <div className="meter__label">
        <span>{label}</span>
        <span className="meter__tone">{t(`common.meterTone.${tone}`)}</span>
      </div>
      <div className="meter__track" role="meter" aria-valuemin={0} aria-valuemax={100} aria-valuenow={clamped} aria-label={typeof label === "string" ? label : undefined}>
        <div className="meter__fill" style={{ width: `${clamped}%` }} />
      </div>
      {detail ? <p className="meter__detail">{detail}</p> : null}
    </div>
  );
}

export function Banner({ tone = "info", children, title }: { tone?: "info" | "success" | "warning" | "error"; children: ReactNode; title?: ReactNode }) {
  return (
    <div className={`banner banner--${tone}`} role={tone === "error" ? "alert" : "status"}>
      <Icon name={tone === "error" ? "alert" : tone === "success" ? "check" : "info"} />
      <div>
        {title ? <strong className="banner__title">{title}</strong> : null}
        <div>{children}</div>
      </div>
    </div>
  );
}

export function EmptyState({ title, body, action }: { title: ReactNode; body?: ReactNode; action?: ReactNode }) {
  return (
    <div className="empty">
      <Icon name="inbox" />
      <p className="empty__title">{title}</p>
      {body ? <p className="empty__body">{body}</p> : null}
      {action}
    </div>
  );
}

export function Pagination({ page, pageCount, hrefFor }: { page: number; pageCount: number; hrefFor: (page: number) => string }) {
  const { t } = useTranslation();
  if (pageCount <= 1) return null;
  return (
    <nav className="pagination" aria-label={t("common.pagination")}>
      {page > 1 ? <Link to={hrefFor(page - 1)} rel="prev">{t("common.previous")}</Link> : <span aria-hidden="true" />}
      <span>{t("common.pageOf", { page, count: pageCount })}</span>
      {page < pageCount ? <Link to={hrefFor(page + 1)} rel="next">{t("common.next")}</Link> : <span aria-hidden="true" />}
    </nav>
  );
}

const ICONS: Record<string, string> = {
  info: "M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm1 15h-2v-6h2v6Zm0-8h-2V7h2v2Z",
  alert: "M1 21h22L12 2 1 21Zm12-3h-2v-2h2v2Zm0-4h-2v-4h2v4Z",
  check: "M9 16.2 4.8 12l-1.4 1.4L9 19 21 7l-1.4-1.4L9 16.2Z",
  close: "M19 6.4 17.6 5 12 10.6 6.4 5 5 6.4 10.6 12 5 17.6 6.4 19 12 13.4 17.6 19 19 17.6 13.4 12 19 6.4Z",
  inbox: "M19 3H5a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h14a2 2 0 0 0 2-2V5a2 2 0 0 0-2-2Zm0 12h-4a3 3 0 0 1-6 0H5V5h14v10Z",
  message: "M20 2H4a2 2 0 0 0-2 2v18l4-4h14a2 2 0 0 0 2-2V4a2 2 0 0 0-2-2Z",
  group: "M16 11a3 3 0 1 0 0-6 3 3 0 0 0 0 6Zm-8 0a3 3 0 1 0 0-6 3 3 0 0 0 0 6Zm0 2c-2.3 0-7 1.2-7 3.5V19h14v-2.5C15 14.2 10.3 13 8 13Zm8 0c-.3 0-.6 0-1 .1 1.2.8 2 2 2 3.4V19h6v-2.5c0-2.3-4.7-3.5-7-3.5Z",
  user: "M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8Zm0 2c-2.7 0-8 1.3-8 4v2h16v-2c0-2.7-5.3-4-8-4Z",
  qr: "M3 11h8V3H3v8Zm2-6h4v4H5V5Zm8-2v8h8V3h-8Zm6 6h-4V5h4v4ZM3 21h8v-8H3v8Zm2-6h4v4H5v-4Zm13-2h-2v4h-3v2h3v2h2v-4h3v-2h-3v-2Zm-5 6h2v2h-2v-2Z",
  campaign: "M3 10v4h3l5 5V5L6 10H3Zm13.5 2A4.5 4.5 0 0 0 14 8v8a4.5 4.5 0 0 0 2.5-4Z",
  help: "M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm1 17h-2v-2h2v2Zm2.1-7.7-.9.9A3.4 3.4 0 0 0 13 15h-2v-.5a4 4 0 0 1 1.2-2.8l1.2-1.3A2 2 0 1 0 10 9H8a4 4 0 1 1 7.1 2.3Z",
  phone: "M16 1H8a2 2 0 0 0-2 2v18a2 2 0 0 0 2 2h8a2 2 0 0 0 2-2V3a2 2 0 0 0-2-2Zm-4 21a1.5 1.5 0 1 1 0-3 1.5 1.5 0 0 1 0 3Zm4-4H8V4h8v14Z",
  home: "M10 20v-6h4v6h5v-8h3L12 3 2 12h3v8h5Z",
  groups: "M12 2 6.5 11h11L12 2Zm5.5 11a4.5 4.5 0 1 0 0 9 4.5 4.5 0 0 0 0-9ZM3 21.5h8v-8H3v8Z",
  card: "M20 4H4a2 2 0 0 0-2 2v12a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2V6a2 2 0 0 0-2-2Zm0 14H4v-6h16v6Zm0-10H4V6h16v2Z",
  team: "M16.5 12a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5ZM9 11a3 3 0 1 0 0-6 3 3 0 0 0 0 6Zm7.5 3c-1.8 0-5.5.9-5.5 2.8V19h11v-2.3c0-1.8-3.7-2.7-5.5-2.7ZM9 13c-2.3 0-7 1.2-7 3.5V19h7v-2.3c0-.8.3-2.3 2.4-3.5A12 12 0 0 0 9 13Z",
  play: "M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm-2 14.5v-9l6 4.5-6 4.5Z",
  chart: "M4 20V10h3v10H4Zm6.5 0V4h3v16h-3ZM17 20v-7h3v7h-3Z",
  more: "M6 10a2 2 0 1 0 0 4 2 2 0 0 0 0-4Zm12 0a2 2 0 1 0 0 4 2 2 0 0 0 0-4Zm-6 0a2 2 0 1 0 0 4 2 2 0 0 0 0-4Z",
};

export function Icon({ name, label }: { name: keyof typeof ICONS; label?: string }) {
  return (
    <svg className="icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden={label ? undefined : true} role={label ? "img" : undefined} aria-label={label} focusable="false">
      <path d={ICONS[name] ?? ICONS.info} fill="currentColor" />
    </svg>
  );
}
