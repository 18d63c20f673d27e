// Pieces shared by the subscription pages (not a route): the card form's schema and fields, and the plan choices.
import { getInputProps } from "@conform-to/react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { ChoiceGroup } from "~/components/choices";
import { Field, type FieldMeta } from "~/components/form";
import { formatPounds, type Plan } from "~/domain/billing/money";

/** True when the digits pass the Luhn check every card number carries. */
function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

export const cardFields = {
  number: z
    .string({ error: "billing.errors.cardNumber" })
    .trim()
    .max(23, "billing.errors.cardNumber")
    .refine((v) => /^[0-9 ]+$/.test(v) && /^\d{12,19}$/.test(v.replace(/ /g, "")) && luhn(v.replace(/ /g, "")), "billing.errors.cardNumber"),
  expiry: z
    .string({ error: "billing.errors.expiry" })
    .trim()
    .regex(/^(0[1-9]|1[0-2])\s*\/\s*\d{2}$/, "billing.errors.expiry"),
  cvc: z.string({ error: "billing.errors.cvc" }).trim().regex(/^\d{3,4}$/, "billing.errors.cvc"),
  name: z.string({ error: "validation.required" }).trim().min(1, "validation.required").max(100, "validation.tooLongShort"),
};

export const planField = z.string({ error: "billing.errors.plan" }).trim().regex(/^[A-Za-z0-9_-]{1,40}$/, "billing.errors.plan");

export function CardFields({ fields }: { fields: Record<"number" | "expiry" | "cvc" | "name", FieldMeta> }) {
  const { t } = useTranslation();
  return (
    <fieldset className="card-fields">
      <legend>{t("billing.card.legend")}</legend>
      <Field
        field={fields.name}
        label={t("billing.card.name")}
        input={{ ...getInputProps(fields.name as never, { type: "text" }), autoComplete: "cc-name", maxLength: 100 }}
      />
      <Field
        field={fields.number}
        label={t("billing.card.number")}
        hint={t("billing.card.numberHint")}
        input={{ ...getInputProps(fields.number as never, { type: "text" }), inputMode: "numeric", autoComplete: "cc-number", maxLength: 23 }}
      />
      <div className="card-fields__row">
        <Field
          field={fields.expiry}
          label={t("billing.card.expiry")}
          hint={t("billing.card.expiryHint")}
          input={{ ...getInputProps(fields.expiry as never, { type: "text" }), inputMode: "numeric", autoComplete: "cc-exp", maxLength: 7 }}
        />
        <Field
          field={fields.cvc}
          label={t("billing.card.cvc")}
          hint={t("billing.card.cvcHint")}
          input={{ ...getInputProps(fields.cvc as never, { type: "text" }), inputMode: "numeric", autoComplete: "cc-csc", maxLength: 4 }}
        />
      </div>
    </fieldset>
  );
}

/** The plans as radio choices: allowance and price a month (excluding VAT). */
export function PlanChoices({ plans, field, legend, defaultValue, hint }: { plans: (Plan & { totalPence?: number })[]; field: FieldMeta; legend: string; defaultValue?: string; hint?: string }) {
  const { t, i18n } = useTranslation();
  return (
    <ChoiceGroup
      name={field.name}
      legend={legend}
      hint={hint}
      defaultValue={defaultValue}
      errors={field.errors?.map((e) => t(e))}
      errorId={field.errorId}
      options={plans.map((p) => ({
        value: p.id,
        label: t("billing.plan.name", { count: p.allowance, allowance: p.allowance.toLocaleString(i18n.language) }),
        hint:
          p.totalPence === undefined
            ? t("billing.plan.price", { price: formatPounds(p.pricePence, i18n.language) })
            : t("billing.plan.priceWithVat", { price: formatPounds(p.pricePence, i18n.language), total: formatPounds(p.totalPence, i18n.language) }),
      }))}
    />
  );
}
