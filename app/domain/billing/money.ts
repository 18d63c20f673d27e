// Plans and money: pure functions shared by the billing pages, the API and the tests. Amounts are whole pence.

export interface Plan {
  id: string;
  /** Texts (message credits) a month. */
  allowance: number;
  /** Price a month in pence, excluding VAT. */
  pricePence: number;
}

/** What billing needs from the configuration. */
export interface BillingSettings {
  plans: Plan[];
  /** VAT in percent (20 in the UK). */
  vatRatePercent: number;
  /** Days after a failed renewal before sending stops. */
  graceDays: number;
  /** Days after the first failure on which the card is tried again. */
  retryDays: number[];
  /** The fixed referral discount in pence, for both businesses, once (0: none). */
  referralDiscountPence?: number;
  /** Who issues the invoices; when set, every paid invoice is emailed to the Administrator with its PDF. */
  supplier?: { name: string; address: string[]; vatNumber: string };
}

export const DEFAULT_BILLING: BillingSettings = {
  plans: [
    { id: "s250", allowance: 250, pricePence: 1500 },
    { id: "s500", allowance: 500, pricePence: 2500 },
    { id: "s1000", allowance: 1000, pricePence: 4500 },
    { id: "s2500", allowance: 2500, pricePence: 9900 },
    { id: "s5000", allowance: 5000, pricePence: 17900 },
  ],
  vatRatePercent: 20,
  graceDays: 7,
  retryDays: [1, 3, 5],
};

export function findPlan(settings: BillingSettings, id: string | null | undefined): Plan | undefined {
  return settings.plans.find((p) => p.id === id);
}

export interface Amounts {
  netPence: number;
  companyDiscountPence: number;
  referralDiscountPence: number;
  creditPence: number;
  vatPence: number;
  totalPence: number;
}

/**
 * An invoice's figures: the net price less the company discount (a percentage), the referral discount and
 * any credit (never below 0), VAT on what is left (rounded to the nearest penny), and the total.
 */
export function amounts(netPence: number, vatRatePercent: number, discounts: { companyPercent?: number; referralPence?: number; creditPence?: number } = {}): Amounts {
  const companyDiscountPence = Math.round((netPence * (discounts.companyPercent ?? 0)) / 100);
  let left = netPence - companyDiscountPence;
  const referralDiscountPence = Math.min(left, Math.max(0, discounts.referralPence ?? 0));
  left -= referralDiscountPence;
  const creditPence = Math.min(left, Math.max(0, discounts.creditPence ?? 0));
  left -= creditPence;
  const vatPence = Math.round((left * vatRatePercent) / 100);
  return { netPence, companyDiscountPence, referralDiscountPence, creditPence, vatPence, totalPence: left + vatPence };
}

/** The part of a price for what is left of a period, to the nearest penny. */
export function proRata(pricePence: number, periodStart: Date, periodEnd: Date, now: Date): number {
  const whole = periodEnd.getTime() - periodStart.getTime();
  const left = Math.max(0, Math.min(whole, periodEnd.getTime() - now.getTime()));
  return whole > 0 ? Math.round((pricePence * left) / whole) : 0;
}

/** `months` calendar months after `anchor` (UTC), on the same day or the month's last day when it is shorter. */
export function addMonths(anchor: Date, months: number): Date {
  const y = anchor.getUTCFullYear();
  const m = anchor.getUTCMonth() + months;
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const d = new Date(anchor);
  d.setUTCFullYear(y, m, Math.min(anchor.getUTCDate(), last));
  return d;
}

/** The first monthly date after `after`, counting whole months from `anchor` (so 31 Jan → 28 Feb → 31 Mar). */
export function nextMonthly(anchor: Date, after: Date): Date {
  let n = Math.max(1, (after.getUTCFullYear() - anchor.getUTCFullYear()) * 12 + (after.getUTCMonth() - anchor.getUTCMonth()) - 1);
  let d = addMonths(anchor, n);
  while (d.getTime() <= after.getTime()) d = addMonths(anchor, ++n);
  return d;
}

/** £12.34 in the locale's style. */
export function formatPounds(pence: number, locale: string): string {
  return new Intl.NumberFormat(locale === "fr" ? "fr-FR" : "en-GB", { style: "currency", currency: "GBP", currencyDisplay: "narrowSymbol" }).format(pence / 100);
}

/** A day as people read it on a bill: 24 December 2026 (UK time). */
export function formatBillingDate(iso: string, locale: string): string {
  return new Intl.DateTimeFormat(locale === "fr" ? "fr-FR" : "en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "Europe/London" }).format(new Date(iso));
}
