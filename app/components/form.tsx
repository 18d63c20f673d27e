// Forms: <AppForm> adds the CSRF field and works as a plain HTML form without JavaScript; <Field>
// renders label, hint, input and translated errors, wired for conform's field metadata.
import type { ReactNode } from "react";
import { Form, type FormProps } from "react-router";
import { useTranslation } from "react-i18next";
import { useRootData } from "~/root";

export function CsrfField() {
  const root = useRootData();
  return <input type="hidden" name="_csrf" value={root?.csrf ?? ""} />;
}

export function AppForm({ children, method = "post", ...props }: FormProps) {
  return (
    <Form method={method} {...props}>
      {method !== "get" ? <CsrfField /> : null}
      {children}
    </Form>
  );
}

export interface FieldMeta {
  id: string;
  name: string;
  errorId: string;
  descriptionId: string;
  errors?: string[];
  initialValue?: unknown;
  key?: string;
}

type InputProps = React.InputHTMLAttributes<HTMLInputElement>;

export function Field({
  field,
  label,
  hint,
  type = "text",
  input = {},
  children,
}: {
  field: FieldMeta;
  label: string;
  hint?: ReactNode;
  type?: string;
  input?: InputProps;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const errors = field.errors ?? [];
  const invalid = errors.length > 0;
  const describedBy = [hint ? field.descriptionId : null, invalid ? field.errorId : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={`field${invalid ? " field--invalid" : ""}`}>
      <label htmlFor={field.id}>{label}</label>
      {hint ? <p className="field__hint" id={field.descriptionId}>{hint}</p> : null}
      {children ?? (
        <input
          id={field.id}
          name={field.name}
          type={type}
          key={field.key}
          defaultValue={type === "password" ? undefined : (field.initialValue as string | undefined)}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          {...input}
        />
      )}
      {invalid ? (
        <ul className="field__errors" id={field.errorId}>
          {[...new Set(errors)].map((e) => (
            <li key={e}>{translateError(t, e, { field: label, max: input.maxLength })}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** Errors that belong to the whole form (conform's form.errors), e.g. an error code from the server. */
export function FormErrors({ errors, id }: { errors?: string[]; id?: string }) {
  const { t } = useTranslation();
  if (!errors?.length) return null;
  return (
    <div className="banner banner--error" role="alert" id={id}>
      <ul>
        {[...new Set(errors)].map((e) => (
          <li key={e}>{translateError(t, e)}</li>
        ))}
      </ul>
    </div>
  );
}

/**
 * Form-level errors may carry placeholder data as "KEY|{json}"; `base` gives defaults (the field's
 * label, its length limit) that the error's own data overrides.
 */
export function translateError(t: (k: string, o?: Record<string, unknown>) => string, e: string, base: Record<string, unknown> = {}): string {
  const bar = e.indexOf("|");
  if (bar === -1) return t(e, base);
  try {
    return t(e.slice(0, bar), { ...base, ...(JSON.parse(e.slice(bar + 1)) as Record<string, unknown>) });
  } catch {
    return t(e.slice(0, bar), base);
  }
}
