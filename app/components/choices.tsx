// Small display and input pieces every screen shares: a group of radio choices, a list of counts,
// a status badge and a phone number that never wraps. Plain CSS classes from styles/app.css.
import type { ReactNode } from "react";

export interface ChoiceOption {
  value: string;
  label: ReactNode;
  hint?: ReactNode;
}

/**
 * Radio buttons as a fieldset: each option is one large target with its label beside the button,
 * an optional hint under the label, and the group's errors under the options.
 */
export function ChoiceGroup({
  name,
  legend,
  options,
  defaultValue,
  onChange,
  errors,
  errorId,
  hint,
  children,
}: {
  name: string;
  legend: ReactNode;
  options: ChoiceOption[];
  defaultValue?: string;
  onChange?: (value: string) => void;
  errors?: ReactNode[];
  errorId?: string;
  hint?: ReactNode;
  children?: ReactNode;
}) {
  const invalid = Boolean(errors?.length);
  return (
    <fieldset className={`choices${invalid ? " field--invalid" : ""}`} aria-describedby={invalid ? errorId : undefined}>
      <legend className="choices__legend">{legend}</legend>
      {hint ? <p className="field__hint">{hint}</p> : null}
      <div className="choices__options">
        {options.map((o) => (
          <label key={o.value} className="choices__option">
            <input type="radio" name={name} value={o.value} defaultChecked={defaultValue === o.value} onChange={onChange ? () => onChange(o.value) : undefined} />
            <span className="choices__text">
              <span className="choices__label">{o.label}</span>
              {o.hint ? <span className="choices__hint">{o.hint}</span> : null}
            </span>
          </label>
        ))}
      </div>
      {children}
      {invalid ? (
        <ul className="field__errors" id={errorId}>
          {errors!.map((e, i) => (
            <li key={i}>{e}</li>
          ))}
        </ul>
      ) : null}
    </fieldset>
  );
}

export interface Stat {
  label: ReactNode;
  value: ReactNode;
  /** Marks a count that needs attention (failed texts): a word or icon says it too, never colour alone. */
  tone?: "bad";
}

/** Counts as a labelled grid: a small label over a large number, wrapping onto as many rows as needed. */
export function StatList({ items, className = "", label }: { items: Stat[]; className?: string; label?: string }) {
  return (
    <dl className={`stats ${className}`.trim()} aria-label={label}>
      {items.map((s, i) => (
        <div key={i} className={`stats__item${s.tone ? ` stats__item--${s.tone}` : ""}`}>
          <dt>{s.label}</dt>
          <dd>{s.value}</dd>
        </div>
      ))}
    </dl>
  );
}

export type BadgeTone = "neutral" | "green" | "yellow" | "red" | "info";

/** A short status word in a pill as wide as its text (never stretched across a row). */
export function Badge({ tone = "neutral", children, className = "" }: { tone?: BadgeTone; children: ReactNode; className?: string }) {
  return <span className={`badge badge--${tone} ${className}`.trim()}>{children}</span>;
}

/** A phone number kept on one line (and read as one number). */
export function PhoneNumber({ children }: { children: ReactNode }) {
  return <span className="nowrap">{children}</span>;
}
