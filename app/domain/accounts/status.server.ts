// Account status and the current business, as the home screen and /api/account/status see them.
import type { Database } from "#db/index";
import { compiledQuery } from "#db/compiled";
import { TERMS_VERSION } from "~/lib/config.server";
import { planView, type PlanView } from "~/domain/billing/plan";

export interface AccountStatus {
  onboarding: string;
  acceptTermsAndConditions: boolean;
  helpSectionsViewed: string[];
  locale: string;
  displayNotification: string | null;
}

const businessRow = compiledQuery((db: Database, businessId: number) => db.selectFrom("businesses").selectAll().where("id", "=", businessId));

export async function getBusiness(db: Database, businessId: number) {
  const [row] = await businessRow(db, businessId);
  if (!row) throw new Error(`business ${businessId} not found`);
  return row;
}

const viewedSections = compiledQuery((db: Database, userId: number) => db.selectFrom("help_sections_viewed").select("section").where("user_id", "=", userId).orderBy("section"));

type BusinessRow = Awaited<ReturnType<typeof getBusiness>>;

export function planOf(b: BusinessRow, now: Date): PlanView {
  return planView(
    { status: b.status, messageAllowance: b.message_allowance, allowanceUsed: b.allowance_used, trialCredits: b.trial_credits, trialEndsAt: b.trial_ends_at },
    now,
  );
}

export async function getPlan(db: Database, businessId: number, now: Date): Promise<PlanView> {
  return planOf(await getBusiness(db, businessId), now);
}

export async function getAccountStatus(db: Database, user: { userId: number; businessId: number }, now: Date): Promise<AccountStatus> {
  const b = await getBusiness(db, user.businessId);
  const sections = await viewedSections(db, user.userId);
  const plan = planOf(b, now);
  return {
    onboarding: b.onboarding,
    acceptTermsAndConditions: b.terms_version !== TERMS_VERSION,
    helpSectionsViewed: sections.map((s) => s.section),
    locale: b.locale,
    displayNotification: plan.notification,
  };
}

export async function markHelpSectionViewed(db: Database, userId: number, section: string, now: Date): Promise<void> {
  await db
    .insertInto("help_sections_viewed")
    .values({ user_id: userId, section, viewed_at: now.toISOString() })
    .onConflict((oc) => oc.columns(["user_id", "section"]).doNothing())
    .execute();
}
