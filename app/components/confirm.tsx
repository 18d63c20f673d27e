// The confirmation step for destructive actions. Without JavaScript the button is a link to the same
// page with ?confirm=<id>, which shows the question and a plain form in the page; with JavaScript the
// same question opens in a <dialog>. Either way nothing is deleted until the second press.
import { useEffect, useRef, useState, type ReactNode } from "react";
import { Link, useLocation } from "react-router";
import { useTranslation } from "react-i18next";
import { AppForm } from "./form";
import { Button } from "./ui";

export function ConfirmAction({
  id,
  trigger,
  title,
  children,
  confirmLabel,
  fields,
  action,
  open = false,
}: {
  /** Names this confirmation in the address (?confirm=id) and in element ids. */
  id: string;
  trigger: ReactNode;
  title: ReactNode;
  /** What will happen, in plain words (ui.md: destructive actions say what they will do). */
  children: ReactNode;
  confirmLabel: ReactNode;
  /** Hidden fields the confirmed form posts. */
  fields: Record<string, string>;
  action?: string;
  /** Shows the question in the page straight away (for example when the server asks again). */
  open?: boolean;
}) {
  const { t } = useTranslation();
  const location = useLocation();
  const dialog = useRef<HTMLDialogElement>(null);
  const [enhanced, setEnhanced] = useState(false);
  useEffect(() => setEnhanced(true), []);

  const params = new URLSearchParams(location.search);
  const asked = open || params.get("confirm") === id;
  params.delete("confirm");
  const rest = params.toString();
  const back = `${location.pathname}${rest ? `?${rest}` : ""}`;
  params.set("confirm", id);
  const ask = `${location.pathname}?${params.toString()}#${id}`;

  const question = (inDialog: boolean) => (
    <div className="confirm" role="group" aria-labelledby={`${id}-title`}>
      <h2 className="confirm__title" id={`${id}-title`}>
        {title}
      </h2>
      <div className="confirm__body">{children}</div>
      <AppForm action={action} className="confirm__actions" onSubmit={() => dialog.current?.close()}>
        {Object.entries(fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <Button variant="danger">{confirmLabel}</Button>
        {inDialog ? (
          <button type="button" className="btn btn--secondary" onClick={() => dialog.current?.close()}>
            {t("common.cancel")}
          </button>
        ) : (
          <Link to={back} className="btn btn--secondary" replace preventScrollReset>
            {t("common.cancel")}
          </Link>
        )}
      </AppForm>
    </div>
  );

  return (
    <div className="confirm-action" id={id}>
      {asked ? (
        question(false)
      ) : enhanced ? (
        <>
          <button type="button" className="btn btn--destructive" aria-haspopup="dialog" onClick={() => dialog.current?.showModal()}>
            {trigger}
          </button>
          <dialog ref={dialog} className="confirm-dialog" aria-labelledby={`${id}-title`}>
            {question(true)}
          </dialog>
        </>
      ) : (
        <Link to={ask} className="btn btn--destructive" preventScrollReset>
          {trigger}
        </Link>
      )}
    </div>
  );
}
